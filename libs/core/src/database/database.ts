// TypeORM on PostgreSQL: schema changes only through migrations, never synchronize.
import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { MIGRATIONS } from './migrations';
import { ScopedTimeoutClient } from './read-timeout';

export function dataSourceOptions(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: config.databasePoolSize, idleTimeoutMillis: 30_000, Client: ScopedTimeoutClient },
  };
}

/** Creates the database named in the URL when it is missing (PGlite has only its one database). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  if (name === 'postgres') return;
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

/** Creates the database if needed and brings its schema up to date. */
export async function migrate(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>): Promise<string[]> {
  await ensureDatabase(config.databaseUrl);
  const dataSource = new DataSource({ ...dataSourceOptions(config), extra: { max: 1 } });
  await dataSource.initialize();
  try {
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
