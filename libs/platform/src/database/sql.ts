// The few calls a repository written in SQL makes, so one repository runs in the apps (on TypeORM's
// pool) and in the operator CLI (on one pg client, without loading TypeORM or Nest).
import type { ClientBase } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { preparedPoolQuery } from './prepared';

/** Runs one statement and answers its rows (an UPDATE or DELETE answers its RETURNING rows). */
export interface Sql {
  query<T = any>(text: string, values?: unknown[]): Promise<T[]>;
}

export interface SqlDatabase extends Sql {
  /** Work in one transaction, committed when it resolves and rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /** A hot statement prepared once per connection (prepared.ts). */
  prepared<T = any>(name: string, text: string, values: unknown[]): Promise<T[]>;
}

function onRunner(runner: QueryRunner): Sql {
  return { query: async (text, values) => (await runner.query(text, values, true)).records };
}

/** The apps' pool, through TypeORM (its structured results: rows whatever the statement). */
export function typeormSql(dataSource: DataSource): SqlDatabase {
  return {
    async query(text, values) {
      const runner = dataSource.createQueryRunner();
      try {
        return await onRunner(runner).query(text, values);
      } finally {
        await runner.release();
      }
    },
    transaction: (work) => dataSource.transaction((manager) => work(onRunner(manager.queryRunner!))),
    prepared: (name, text, values) => preparedPoolQuery(dataSource, name, text, values),
  };
}

/** One pg client (the CLI's single connection). */
export function pgSql(client: ClientBase): SqlDatabase {
  const sql: Sql = { query: async (text, values) => (await client.query(text, values as unknown[])).rows };
  return {
    ...sql,
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work(sql);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    prepared: async (name, text, values) => (await client.query({ name, text, values })).rows,
  };
}
