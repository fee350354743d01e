// Time limits on every use of the apps' pool, and what it does while the
// database cannot be reached. Each connection starts with a statement timeout and an idle-in-transaction
// timeout, which PostgreSQL itself enforces; connecting, and waiting for a pooled connection, are
// bounded by the connect timeout. A frozen server enforces nothing, so the watch notices a statement
// that waits long and asks the server SELECT 1 on a connection of its own; when the server is down by the
// rule of docs/decisions.md#a-busy-database-is-not-a-dead-one (domain/server-state.ts), the outage begins:
// every waiting statement is given up (its connection closed, so the server rolls its transaction back when
// it next runs) and every new one refused at once, until the server answers again.
import type { AppConfig } from '../config/config';
import type { DatabaseUnavailable } from '../errors/unavailable';
import { DATABASE_OUTAGE, Outage } from '../runtime/outage';
import { Clock, SYSTEM_CLOCK } from '../time/clock';
import { DatabaseWatch } from './database-watch';
import type { WatchSettings } from './domain/server-state';
import { ScopedTimeoutClient } from './prepared';

export type DatabaseLimits = Pick<
  AppConfig,
  | 'databaseUrl'
  | 'databaseConnectTimeoutMs'
  | 'databaseStatementTimeoutMs'
  | 'databaseIdleInTransactionTimeoutMs'
  | 'databaseStallMs'
  | 'databaseProbeTimeoutMs'
  | 'databaseProbeMisses'
  | 'embeddedDatabase'
>;

/**
 * The pg Pool options of the limits (TypeORM passes `extra` to the Pool, which passes them to each Client);
 * `outage` is the server's (the read replica has one of its own, read-database.ts); `clock` times the watch.
 */
export function limitedPoolOptions(
  limits: DatabaseLimits,
  outage: Outage = DATABASE_OUTAGE,
  clock: Clock = SYSTEM_CLOCK,
): Record<string, unknown> {
  // PGlite serves one connection at a time: a probe would wait behind any long statement, so no watch there.
  if (limits.embeddedDatabase) return { connectionTimeoutMillis: limits.databaseConnectTimeoutMs };
  const settings: WatchSettings = {
    stallMs: limits.databaseStallMs,
    probeTimeoutMs: limits.databaseProbeTimeoutMs,
    probeMisses: limits.databaseProbeMisses,
  };
  return {
    connectionTimeoutMillis: limits.databaseConnectTimeoutMs,
    statement_timeout: limits.databaseStatementTimeoutMs,
    idle_in_transaction_session_timeout: limits.databaseIdleInTransactionTimeoutMs,
    keepAlive: true,
    databaseWatch: new DatabaseWatch(limits.databaseUrl, outage, clock, settings),
  };
}

type Callback = (error: Error | null, result?: unknown) => void;

/** The pool's connection: ScopedTimeoutClient's read scope, under its pool's DatabaseWatch. */
export class WatchedClient extends ScopedTimeoutClient {
  private readonly watch: DatabaseWatch | undefined;
  /** Statements sent and not yet answered, since when the oldest has waited, and whether the last is a COMMIT. */
  pending = 0;
  busySince = 0;
  committing = false;

  constructor(config?: { databaseWatch?: DatabaseWatch }) {
    super(config as never);
    this.watch = config?.databaseWatch;
  }

  override connect(callback?: any): any {
    const watch = this.watch;
    if (!watch) return callback ? super.connect(callback) : super.connect();
    if (watch.outage.down) {
      const refused = watch.unavailable();
      if (!callback) return Promise.reject(refused);
      process.nextTick(() => callback(refused));
      return undefined;
    }
    watch.connecting(this);
    const joined = () => {
      this.once('end', () => watch.left(this));
      watch.joined(this);
    };
    const failed = (error: unknown) => {
      watch.left(this);
      return watch.failed(error);
    };
    if (callback) {
      return super.connect((error: Error | null) => {
        if (!error) joined();
        callback(error ? failed(error) : null);
      });
    }
    return super.connect().then(joined, (error: unknown) => Promise.reject(failed(error)));
  }

  override query(...args: any[]): any {
    const watch = this.watch;
    const first = args[0];
    // pg-cursor and pg-query-stream submit themselves and answer through events: not watched
    if (!watch || typeof first?.submit === 'function') return super.query(...args);
    const last = args[args.length - 1];
    if (watch.outage.down) {
      const refused = watch.unavailable();
      if (typeof last !== 'function') return Promise.reject(refused);
      process.nextTick(() => last(refused));
      return undefined;
    }
    this.committing =
      this.commitWithNext || /^\s*COMMIT\b/i.test(typeof first === 'string' ? first : (first?.text ?? ''));
    watch.sent(this);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: Error | null, result: unknown) =>
        (last as Callback)(watch.answered(this, error) as Error | null, result);
      return super.query(...args);
    }
    return (super.query(...args) as Promise<unknown>).then(
      (result) => (watch.answered(this), result),
      (error: unknown) => Promise.reject(watch.answered(this, error)),
    );
  }

  /**
   * Gives up the statements waiting here: closing the connection fails them with `error` and drops it from the pool.
   */
  abandon(error: DatabaseUnavailable): void {
    if (this.listenerCount('error') === 0) this.once('error', () => undefined);
    const stream = (this as unknown as { connection?: { stream?: { destroy(error?: Error): void } } }).connection
      ?.stream;
    stream?.destroy(error);
  }
}
