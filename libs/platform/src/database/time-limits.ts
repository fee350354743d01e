// Time limits on every use of the apps' pool, and what it does while the
// database cannot be reached. Each connection starts with a statement timeout and an idle-in-transaction
// timeout, which PostgreSQL itself enforces; connecting, and waiting for a pooled connection, are
// bounded by the connect timeout. A frozen server enforces nothing, so the watch notices a statement
// that waits long, asks the server on a connection of its own, and when that goes unanswered too, the
// outage begins: every waiting statement is given up (its connection closed, so the server rolls its
// transaction back when it next runs) and every new one refused at once, until the server answers again.
import { Client } from 'pg';
import type { AppConfig } from '../config/config';
import { DatabaseUnavailable, isConnectionFailure } from '../errors/unavailable';
import { DATABASE_OUTAGE, Outage } from '../runtime/outage';
import { Clock, ClockTimer, SYSTEM_CLOCK } from '../time/clock';
import { ScopedTimeoutClient } from './prepared';

export type DatabaseLimits = Pick<
  AppConfig,
  | 'databaseUrl'
  | 'databaseConnectTimeoutMs'
  | 'databaseStatementTimeoutMs'
  | 'databaseIdleInTransactionTimeoutMs'
  | 'embeddedDatabase'
>;

/** A statement waiting this long has the server asked whether it still answers. */
export const STALL_MS = 1_500;
/** How long the server has to answer that question, and the pause between questions while it is away. */
export const PROBE_MS = 1_000;
const TICK_MS = 250;

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
  return {
    connectionTimeoutMillis: limits.databaseConnectTimeoutMs,
    statement_timeout: limits.databaseStatementTimeoutMs,
    idle_in_transaction_session_timeout: limits.databaseIdleInTransactionTimeoutMs,
    keepAlive: true,
    databaseWatch: new DatabaseWatch(limits.databaseUrl, outage, clock),
  };
}

export class DatabaseWatch {
  private readonly busy = new Set<WatchedClient>();
  private timer: ClockTimer | null = null;
  private probing = false;
  private lastProbe = 0;

  constructor(
    private readonly url: string,
    readonly outage: Outage = DATABASE_OUTAGE,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  unavailable(cause?: unknown, uncertain = false): DatabaseUnavailable {
    const why = cause ? `: ${(cause as Error).message}` : '';
    return new DatabaseUnavailable(`PostgreSQL cannot be reached${why}`, uncertain, { cause });
  }

  /** A statement went out on client. */
  sent(client: WatchedClient): void {
    if (client.pending++ === 0) client.busySince = this.clock.now();
    this.busy.add(client);
    this.timer ??= this.clock.setInterval(() => this.tick(), TICK_MS).unref();
  }

  /** A statement on client was answered (or failed); answers the error its caller should see. */
  answered(client: WatchedClient, error?: unknown): unknown {
    if (--client.pending > 0) client.busySince = this.clock.now();
    else this.busy.delete(client);
    return error ? this.failed(error) : error;
  }

  /**
   * A connection-level failure suspects the server and becomes DatabaseUnavailable; a statement's own error stays as it
   * is.
   */
  failed(error: unknown): unknown {
    if (error instanceof DatabaseUnavailable || !isConnectionFailure(error)) return error;
    this.suspect();
    return this.unavailable(error);
  }

  private tick(): void {
    if (this.busy.size === 0 && this.timer) {
      this.timer.cancel();
      this.timer = null;
      return;
    }
    const now = this.clock.now();
    for (const client of this.busy) if (now - client.busySince >= STALL_MS) return this.suspect();
  }

  /**
   * Asks the server whether it answers (one question at a time, at most one per STALL_MS); when not, the outage begins.
   */
  private suspect(): void {
    if (this.probing || this.outage.down || this.clock.now() - this.lastProbe < STALL_MS) return;
    this.probing = true;
    this.lastProbe = this.clock.now();
    void this.probe().then((why) => {
      this.probing = false;
      if (why) this.lose(why);
    });
  }

  private lose(why: string): void {
    this.outage.begin(why);
    for (const client of this.busy) client.abandon(this.unavailable(undefined, client.committing));
    this.busy.clear();
    void this.awaitReturn();
  }

  private async awaitReturn(): Promise<void> {
    while (this.outage.down) {
      await new Promise((resolve) => this.clock.setTimeout(() => resolve(undefined), PROBE_MS).unref());
      if ((await this.probe()) === null) this.outage.end();
    }
  }

  /** Null when the server answers SELECT 1 within PROBE_MS (or refuses with a reason of its own), else why not. */
  probe(): Promise<string | null> {
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: PROBE_MS });
    client.on('error', () => undefined);
    const asked = new Promise<string | null>((resolve) => {
      const timer = this.clock.setTimeout(() => resolve(`no answer within ${PROBE_MS} ms`), PROBE_MS);
      client
        .connect()
        .then(() => client.query('SELECT 1'))
        .then(
          () => resolve(null),
          (error: Error) => resolve(isConnectionFailure(error) ? error.message : null),
        )
        .finally(() => timer.cancel());
    });
    return asked.then((why) => {
      // an unanswered connection is cut, not ended: a frozen server would hold a polite goodbye open
      if (why) (client as unknown as { connection?: { stream: { destroy(): void } } }).connection?.stream.destroy();
      else client.end().catch(() => undefined);
      return why;
    });
  }
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
    if (callback) return super.connect((error: Error | null) => callback(error ? watch.failed(error) : null));
    return super.connect().catch((error: unknown) => Promise.reject(watch.failed(error)));
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
