// What a statement meets on its pg connection: hot statements prepared once per connection
// (preparedQuery), the read scope's statement timeout (ScopedTimeoutClient), and a pipelined
// transaction's BEGIN and COMMIT sent with its statements (ScopedTimeoutClient; pipelined.ts).
//
// docs/security.md#graphql-no-caller-can-stall-the-service: a GraphQL read runs under a statement timeout,
// so no query, however it slipped past the cost limit, holds a connection for long. The scope is entered
// for GraphQL requests (body-parsers) and armed for query operations (queryLimitsPlugin); a pool client
// sending a statement inside it first sets statement_timeout (once while it stays set), and its first
// statement outside it is preceded by a reset, on the same connection (pg runs its queries in order).
import { AsyncLocalStorage } from 'node:async_hooks';
import { PipelinedClient, PipelinedQuery } from './pipelined';
import { TargetedClient } from './targeted-client';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a hot query as a named prepared statement on the transaction's own connection, so
 * PostgreSQL parses and plans it once per connection instead of on every post.
 */
export async function preparedQuery<T = any>(
  m: EntityManager,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = (m.queryRunner as unknown as { databaseConnection?: { query: (q: object) => Promise<{ rows: T[] }> } })
    ?.databaseConnection;
  if (!client) return m.query(text, values);
  return (await client.query({ name, text, values })).rows;
}

/** preparedQuery outside a transaction: on whichever pooled connection is free (each prepares it once). */
export async function preparedPoolQuery<T = any>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master?: { query: (q: object) => Promise<{ rows: T[] }> } }).master;
  if (!pool) return dataSource.query(text, values);
  return (await pool.query({ name, text, values })).rows;
}

/**
 * A row as a write document carries it to jsonb_to_recordset, which reads a missing key as NULL: its
 * null fields and the \`omitted\` column (one the statement fills itself, such as the workspace) left
 * out, so the document is smaller to build, send and parse.
 */
export function leanRecord<T extends object>(row: T, omitted?: keyof T): Partial<T> {
  const lean: Partial<T> = {};
  for (const key in row) {
    const value = row[key];
    if (value === null || value === undefined || key === omitted) continue;
    // A Date as JSON.stringify would write it (its toJSON: null, so left out, when invalid), but once per Date.
    if (value instanceof Date) {
      if (!Number.isNaN(value.getTime())) lean[key] = isoText(value) as T[typeof key];
    } else lean[key] = value;
  }
  return lean;
}

/** The ISO texts of the last few instants asked for (cleared when full). */
const recentTexts = new Map<number, string>();

/**
 * date.toISOString(), remembered for the last few instants: the rows, identities and happenings of one
 * write share an arrival time or two, and each toISOString costs about 0.4 µs (a Date left for
 * JSON.stringify about 0.7 µs more), some 2.5 µs an event on a batch, a tenth of the api's time (issue
 * 32). Keyed by the time value, so a Date changed in place still gets its own text.
 */
export function isoText(date: Date): string {
  const time = date.getTime();
  let text = recentTexts.get(time);
  if (text === undefined) {
    text = date.toISOString();
    if (recentTexts.size >= 8) recentTexts.clear();
    recentTexts.set(time, text);
  }
  return text;
}

export interface ReadScope {
  /** Milliseconds a statement may run; 0 while the operation is not known to be a read. */
  timeoutMs: number;
  /** The request writes nothing, so the read replica may serve its reads (read-database.ts). */
  replica?: boolean;
}

export const readScope = new AsyncLocalStorage<ReadScope>();

const TIMED = Symbol('statementTimeoutSet');

/** A pg Client that applies the read scope's timeout (pg Pool's `Client` option), on the host its list chooses. */
export class ScopedTimeoutClient extends TargetedClient implements PipelinedClient {
  /** The timeout this connection was last set to (0: the default). */
  private [TIMED] = 0;
  pipelining = false;
  beginWithNext = false;
  commitWithNext = false;
  committed = false;

  override query(...args: any[]): any {
    if (this.beginWithNext || this.commitWithNext || this.committed) return this.pipelined(args);
    this.applyTimeout(args[0]);
    return (super.query as (...a: any[]) => any)(...args);
  }

  /** Sets the read scope's statement timeout on this connection first, when it differs from what is set. */
  private applyTimeout(first: unknown): void {
    const timeoutMs = readScope.getStore()?.timeoutMs ?? 0;
    const own = typeof first === 'string' && first.startsWith('SET statement_timeout');
    // Set only when it changes: a connection that stays inside reads is set once, not per statement.
    if (!own && timeoutMs > 0 && this[TIMED] !== Math.floor(timeoutMs)) {
      this[TIMED] = Math.floor(timeoutMs);
      void super.query(`SET statement_timeout = ${this[TIMED]}`).catch(() => undefined);
    } else if (!own && timeoutMs === 0 && this[TIMED]) {
      void super.query('SET statement_timeout = DEFAULT').catch(() => undefined);
      this[TIMED] = 0;
    }
  }

  /** The next statement of a pipelinedTransaction: after BEGIN, before COMMIT, or both, in one round trip. */
  private pipelined(args: any[]): Promise<unknown> {
    if (this.committed)
      return Promise.reject(
        new Error('a statement after its transaction committed (commitWithNext marks the last one)'),
      );
    const [first, values] = args;
    if (typeof args[args.length - 1] === 'function' || typeof first?.submit === 'function')
      throw new Error('pipelinedTransaction: promise-style statements only');
    const config = typeof first === 'string' ? { text: first, values } : first;
    const query = new PipelinedQuery(config, this.beginWithNext, this.commitWithNext);
    this.beginWithNext = false;
    // Until its answer, a COMMIT on its way refuses later statements; a failed statement skipped COMMIT, so ROLLBACK
    // may follow.
    this.committed = this.commitWithNext;
    this.commitWithNext = false;
    this.applyTimeout(first);
    return new Promise((resolve, reject) => {
      query.callback = (error, result) => {
        if (error) {
          this.committed = false;
          reject(error);
        } else resolve(result);
      };
      (super.query as (q: unknown) => unknown)(query);
    });
  }
}
