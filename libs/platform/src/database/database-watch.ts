// The database watch of docs/decisions.md#a-busy-database-is-not-a-dead-one: it sees every statement of
// its pool go out and come back; when one has waited DATABASE_STALL_MS it asks the server SELECT 1 on a
// connection of its own, kept open beside the pool's (a busy server is slowest at new connections), and
// domain/server-state.ts says from what it heard whether the server is down or only slow.
import type { Client } from 'pg';
import { DatabaseUnavailable, isConnectionFailure, isReadOnlyRefusal } from '../errors/unavailable';
import { DATABASE_OUTAGE, Outage } from '../runtime/outage';
import { Clock, ClockTimer, SYSTEM_CLOCK } from '../time/clock';
import {
  DEFAULT_WATCH_SETTINGS,
  questionLost,
  ServerHeard,
  serverState,
  silenceAllowedMs,
  WatchSettings,
} from './domain/server-state';
import { connectionConfig, TargetedClient } from './targeted-client';
import type { WatchedClient } from './time-limits';

const TICK_MS = 250;
/** How the watch's own connection shows in pg_stat_activity. */
export const WATCH_APPLICATION_NAME = 'lifeline database watch';

/** Closes a connection without a goodbye: a frozen server would hold a polite one open. */
function cut(client: Client): void {
  (client as unknown as { connection?: { stream: { destroy(): void } } }).connection?.stream.destroy();
}

export class DatabaseWatch {
  private readonly busy = new Set<WatchedClient>();
  /** The pool's open connections: the watch keeps a connection of its own while the pool has one. */
  private readonly members = new Set<WatchedClient>();
  private readonly opening = new Set<WatchedClient>();
  private timer: ClockTimer | null = null;
  /** Its own connection, opened beside the pool's first: a busy server is slowest at new connections. */
  private line: { client: Client; ready: Promise<Client> } | null = null;
  /** The question waiting (numbered, so an answer to one given up is ignored), as the rule reads it. */
  private question = 0;
  private askedAt: number | null = null;
  private sentAt: number | null = null;
  private refusal: string | null = null;
  private heardAt: number;
  /** When the last question was answered: while a statement keeps waiting, one question per stallMs. */
  private answeredAt = -Infinity;

  constructor(
    private readonly url: string,
    readonly outage: Outage = DATABASE_OUTAGE,
    private readonly clock: Clock = SYSTEM_CLOCK,
    readonly settings: WatchSettings = DEFAULT_WATCH_SETTINGS,
  ) {
    this.heardAt = clock.now();
  }

  unavailable(cause?: unknown, uncertain = false): DatabaseUnavailable {
    const why = cause ? `: ${(cause as Error).message}` : '';
    return new DatabaseUnavailable(`PostgreSQL cannot be reached${why}`, uncertain, { cause });
  }

  /** A connection of the pool is being opened: given up with the waiting statements when the server is down. */
  connecting(client: WatchedClient): void {
    this.opening.add(client);
  }

  /** A connection of the pool was opened: the server answered. */
  joined(client: WatchedClient): void {
    this.opening.delete(client);
    this.members.add(client);
    this.heardAt = this.clock.now();
    if (!this.outage.down) this.ownLine().catch(() => undefined);
  }

  /** A connection of the pool ended (or never opened); with the last, the watch's own ends too. */
  left(client: WatchedClient): void {
    this.opening.delete(client);
    this.members.delete(client);
    this.busy.delete(client);
    if (this.members.size > 0 || !this.line) return;
    const { client: line } = this.line;
    this.dropLine();
    // a question waiting there is given up with it, not taken as answered by its end
    this.question++;
    this.askedAt = this.sentAt = null;
    line.end().catch(() => undefined);
  }

  /** A statement went out on client. */
  sent(client: WatchedClient): void {
    if (client.pending++ === 0) client.busySince = this.clock.now();
    this.busy.add(client);
    this.watching();
  }

  /** A statement on client was answered (or failed); answers the error its caller should see. */
  answered(client: WatchedClient, error?: unknown): unknown {
    if (--client.pending > 0) client.busySince = this.clock.now();
    else this.busy.delete(client);
    // a statement's own error is the server's answer; a failed or given-up connection is not
    if (!error || !(error instanceof DatabaseUnavailable || isConnectionFailure(error)))
      this.heardAt = this.clock.now();
    if (isReadOnlyRefusal(error)) return this.demoted(client, error);
    return error ? this.failed(error) : error;
  }

  /**
   * A write on client was refused as read-only: its server is a standby now (docs/operations.md#failover). The
   * connection is ended, so the pool's next one looks for the primary; the watch's own is cut and the server asked
   * at once on a new one, which finds the new primary or, while there is none, begins the outage.
   */
  private demoted(client: WatchedClient, error: unknown): DatabaseUnavailable {
    client.end().catch(() => undefined);
    const line = this.line?.client;
    this.dropLine();
    if (line) cut(line);
    this.ask();
    return this.unavailable(error);
  }

  /**
   * A connection-level failure has the server asked at once and becomes DatabaseUnavailable; a statement's own error
   * stays as it is.
   */
  failed(error: unknown): unknown {
    if (error instanceof DatabaseUnavailable || !isConnectionFailure(error)) return error;
    this.ask();
    return this.unavailable(error);
  }

  /** What the rule reads (a test may look). */
  heard(): ServerHeard {
    return { askedAt: this.askedAt, sentAt: this.sentAt, heardAt: this.heardAt, refused: this.refusal !== null };
  }

  private watching(): void {
    this.timer ??= this.clock.setInterval(() => this.tick(), TICK_MS).unref();
  }

  private tick(): void {
    const now = this.clock.now();
    if (this.askedAt !== null) {
      // judged after the answers already in have been read: a process kept busy reads them late, not never
      setImmediate(() => this.judge());
      return;
    }
    if (this.busy.size === 0 && this.timer) {
      this.timer.cancel();
      this.timer = null;
      return;
    }
    if (now - this.answeredAt < this.settings.stallMs) return;
    for (const client of this.busy) if (now - client.busySince >= this.settings.stallMs) return this.ask();
  }

  /** Asks the server SELECT 1 on the watch's own connection, unless a question waits already. */
  private ask(): void {
    if (this.askedAt !== null || this.outage.down) return;
    this.askedAt = this.clock.now();
    this.refusal = null;
    this.watching();
    this.send();
  }

  private send(): void {
    const question = ++this.question;
    this.sentAt = this.clock.now();
    const kept = this.line?.client;
    const settle = (refusal: string | null) => {
      if (question !== this.question) return;
      if (refusal === null) {
        this.askedAt = this.sentAt = null;
        this.heardAt = this.answeredAt = this.clock.now();
      } else if (kept) {
        // the kept connection had died: ask again on a new one before believing it
        if (this.line?.client === kept) this.dropLine();
        cut(kept);
        this.send();
      } else {
        this.refusal = refusal;
        this.judge();
      }
    };
    this.ownLine()
      .then((line) => line.query('SELECT 1'))
      .then(
        () => settle(null),
        (error: Error) => settle(isConnectionFailure(error) ? error.message : null),
      );
  }

  private judge(): void {
    if (this.askedAt === null || this.outage.down) return;
    const heard = this.heard();
    const now = this.clock.now();
    if (serverState(heard, now, this.settings) === 'down') {
      return this.lose(this.refusal ?? `no answer within ${silenceAllowedMs(this.settings)} ms`);
    }
    if (questionLost(heard, now, this.settings)) {
      const stuck = this.line?.client;
      this.dropLine();
      if (stuck) cut(stuck);
      this.send();
    }
  }

  /** The watch's own connection, connected once and kept while it lasts. */
  private ownLine(): Promise<Client> {
    if (this.line) return this.line.ready;
    const client = new TargetedClient({
      ...connectionConfig(this.url),
      keepAlive: true,
      application_name: WATCH_APPLICATION_NAME,
    });
    const drop = () => {
      if (this.line?.client === client) this.dropLine();
    };
    client.on('error', drop);
    client.on('end', drop);
    const ready = client.connect().then(
      () => {
        // the pool's connections hold the process; this one never does
        (client as unknown as { connection?: { stream?: { unref?(): void } } }).connection?.stream?.unref?.();
        this.heardAt = this.clock.now();
        return client;
      },
      (error: unknown) => {
        drop();
        throw error;
      },
    );
    this.line = { client, ready };
    return ready;
  }

  private dropLine(): void {
    this.line = null;
  }

  private lose(why: string): void {
    this.question++;
    this.askedAt = this.sentAt = this.refusal = null;
    const line = this.line?.client;
    this.dropLine();
    if (line) cut(line);
    this.outage.begin(why);
    for (const client of this.busy) client.abandon(this.unavailable(undefined, client.committing));
    this.busy.clear();
    // a connection still opening would hold its request until the connect timeout
    for (const client of this.opening) client.abandon(this.unavailable());
    this.opening.clear();
    void this.awaitReturn();
  }

  private async awaitReturn(): Promise<void> {
    while (this.outage.down) {
      await new Promise((resolve) =>
        this.clock.setTimeout(() => resolve(undefined), this.settings.probeTimeoutMs).unref(),
      );
      if ((await this.probe()) === null) {
        this.heardAt = this.clock.now();
        this.outage.end();
      }
    }
  }

  /**
   * While the server is down: null when it answers SELECT 1 on a new connection within the silence the rule allows (or
   * refuses with a reason of its own), else why not.
   */
  private probe(): Promise<string | null> {
    const within = silenceAllowedMs(this.settings);
    const client = new TargetedClient({ ...connectionConfig(this.url), connectionTimeoutMillis: within });
    client.on('error', () => undefined);
    const asked = new Promise<string | null>((resolve) => {
      const timer = this.clock.setTimeout(() => resolve(`no answer within ${within} ms`), within);
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
      if (why) cut(client);
      else client.end().catch(() => undefined);
      return why;
    });
  }
}
