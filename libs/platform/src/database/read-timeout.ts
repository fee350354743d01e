// docs/security.md "GraphQL": a GraphQL read runs under a statement timeout, so no query, however
// it slipped past the cost limit, holds a connection for long. The scope is entered for GraphQL
// requests (body-parsers) and armed for query operations (queryLimitsPlugin); a pool client
// sending a statement inside it first sets statement_timeout (once while it stays set), and its first
// statement outside it is preceded by a reset, on the same connection (pg runs its queries in order).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from 'pg';

export interface ReadScope {
  /** Milliseconds a statement may run; 0 while the operation is not known to be a read. */
  timeoutMs: number;
}

export const readScope = new AsyncLocalStorage<ReadScope>();

const TIMED = Symbol('statementTimeoutSet');

/** A pg Client that applies the read scope's timeout (pg Pool's `Client` option). */
export class ScopedTimeoutClient extends Client {
  /** The timeout this connection was last set to (0: the default). */
  private [TIMED] = 0;

  override query(...args: any[]): any {
    const timeoutMs = readScope.getStore()?.timeoutMs ?? 0;
    const first = args[0];
    const own = typeof first === 'string' && first.startsWith('SET statement_timeout');
    // Set only when it changes: a connection that stays inside reads is set once, not per statement.
    if (!own && timeoutMs > 0 && this[TIMED] !== Math.floor(timeoutMs)) {
      this[TIMED] = Math.floor(timeoutMs);
      void super.query(`SET statement_timeout = ${this[TIMED]}`).catch(() => undefined);
    } else if (!own && timeoutMs === 0 && this[TIMED]) {
      void super.query('SET statement_timeout = DEFAULT').catch(() => undefined);
      this[TIMED] = 0;
    }
    return (super.query as (...a: any[]) => any)(...args);
  }
}
