// docs/security.md "GraphQL": a GraphQL read runs under a statement timeout, so no query, however
// it slipped past the cost limit, holds a connection for long. The scope is entered for GraphQL
// requests (body-parsers) and armed for query operations (queryLimitsPlugin); every statement a
// pool client sends inside it is preceded by SET statement_timeout, and the first one outside it
// by RESET, on the same connection (pg runs a client's queries in order).
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
  private [TIMED] = false;

  override query(...args: any[]): any {
    const timeoutMs = readScope.getStore()?.timeoutMs ?? 0;
    const first = args[0];
    const own = typeof first === 'string' && first.startsWith('SET statement_timeout');
    if (!own && timeoutMs > 0) {
      void super.query(`SET statement_timeout = ${Math.floor(timeoutMs)}`).catch(() => undefined);
      this[TIMED] = true;
    } else if (!own && this[TIMED]) {
      void super.query('SET statement_timeout = DEFAULT').catch(() => undefined);
      this[TIMED] = false;
    }
    return (super.query as (...a: any[]) => any)(...args);
  }
}
