// The worker's relay: reads the outbox past its high-water mark (one row, locked with SKIP LOCKED, so
// one worker relays at a time and the others skip), lets every registered handler turn the happenings
// into its own rows inside the same transaction, moves the mark, and only after commit runs the
// handlers' follow-ups (queueing jobs). Outbox rows are never updated: a pass costs the same at any
// table size. A crash before commit leaves the mark where it was; a crash after commit leaves durable
// rows that sweeps pick up. Only rows of finished transactions are read (xid below the snapshot's
// xmin), so a transaction that commits late can never fall behind the mark.
// Writers publish a kick on Redis after they commit; a short poll covers kicks lost while Redis is down.
// A backup restored onto a server whose transaction counter is behind is repaired once (restore-repair.ts).
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig, Clock, ClockTimer, RedisClient } from '@app/platform';
import { CLOCK, CONFIG, connectRedis, DAY_MS, deleteInBatches, SYSTEM_CLOCK } from '@app/platform';
import { HAPPENINGS_FROM, outboxChannel, OutboxRow, outboxRowOf, RELAY_MARK, RELAY_MIN_GAP_MS } from './outbox';
import { repairAfterRestore, RestoreRepaired, restoreRepairedLine } from './restore-repair';

export interface OutboxHandler<Item = unknown> {
  readonly name: string;
  /**
   * A statement over the workspaces of the rows past the mark ($1, text[]) answering what this handler
   * acts on in them, a row each with its `workspace_id`; each row is handed back to `handle`. The relay
   * asks every handler in one statement per pass and reads happenings only for workspaces some handler
   * hears, so a workspace with none costs a pass one small row per writing transaction, and a handler
   * that hears nothing runs no code of its own.
   */
  readonly hearing: string;
  /**
   * The happenings of the workspaces it hears, in the relay's order, with what `hearing` found; may return work to do
   * once the relay has committed.
   */
  handle(manager: EntityManager, rows: OutboxRow[], items: Item[]): Promise<(() => Promise<void>) | void>;
}

/** What every handler hears among the workspaces $1, in one statement: each row tagged with its handler's place. */
export function hearingOf(handlers: ReadonlyArray<Pick<OutboxHandler, 'hearing'>>): string {
  return handlers
    .map((h, i) => `SELECT ${i} AS handler, h.workspace_id, to_jsonb(h) AS item FROM (${h.hearing}) h`)
    .join('\nUNION ALL\n');
}

/** Outbox rows (transactions) per pass. */
const BATCH = 200;
/**
 * Heard happenings per pass, counted in whole outbox rows: past this many the pass stops at the end of
 * the row it is in and the next pass goes on at once. A pass's follow-ups (say, webhook first attempts)
 * start only when it commits, so a burst relayed in a few smaller passes has its first deliveries going
 * out while the next pass writes (bench:webhooks); a pass's own cost is a few round trips.
 */
export const HEARD_PER_PASS = 256;

/**
 * The next rows past the mark (their workspace and place, not their happenings), in the relay's order.
 * The mark (locked, SKIP LOCKED: one relay at a time) is read by scalar subqueries, so the bound is an
 * index condition on (xid, id): the read starts at the mark whatever lies below it
 * (test/medium/outbox-relay.spec.ts, 100,000 relayed rows).
 *
 * The upper bound is the oldest transaction still running that could write this outbox: of the
 * transactions the snapshot sees running (pg_snapshot_xip), every one not shown by pg_stat_activity as a
 * backend of another database (the same xid cannot be another database's and ours, and one not shown at
 * all counts as ours). Rows of older transactions are all visible, so none can commit behind the mark,
 * and a long write in another database on the same server does not hold the relay back. It reads
 * pg_stat_get_activity, the function under the pg_stat_activity view, without the view's joins: that
 * halves the statement's planning, which it pays on every pass.
 */
export const RELAY_NEXT = `
WITH mark AS MATERIALIZED (SELECT xid, id FROM outbox_relay WHERE name = 'main' FOR UPDATE SKIP LOCKED),
bound AS MATERIALIZED (
  SELECT coalesce(
    (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
      WHERE NOT EXISTS (SELECT 1 FROM pg_stat_get_activity(NULL) a
                         WHERE a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())
                           AND a.backend_xid = (x::text::bigint % 4294967296)::text::xid)),
    pg_snapshot_xmax(pg_current_snapshot())) AS upto),
next AS (SELECT o.* FROM outbox o
          WHERE (o.xid, o.id) > ((SELECT xid FROM mark), (SELECT id FROM mark))
            AND o.xid < (SELECT upto FROM bound)
          ORDER BY o.xid, o.id LIMIT ${BATCH})
SELECT workspace_id, id, xid, (SELECT xid FROM mark) AS mark_xid, (SELECT id FROM mark) AS mark_id FROM next
  ORDER BY xid, id`;

/**
 * The happenings of the rows RELAY_NEXT found in the workspaces $5 (text[]): the same range of the
 * (xid, id) order, past the mark ($1, $2) up to the last row found ($3, $4). Every transaction that
 * wrote in it had finished when RELAY_NEXT read it (its bound), so this reads the same rows.
 */
export const RELAY_HAPPENINGS = `
WITH next AS (SELECT o.* FROM outbox o
               WHERE (o.xid, o.id) > ($1::xid8, $2::bigint) AND (o.xid, o.id) <= ($3::xid8, $4::bigint)
                 AND o.workspace_id = ANY($5::text[]))
SELECT * FROM (${HAPPENINGS_FROM('next')}) h ORDER BY h.row_xid, h.id`;

/**
 * Where a pass stops among its happenings (ordered by row): after the row holding the HEARD_PER_PASS-th, or at the end.
 */
function cutIndex(raw: Array<Record<string, unknown>>): number {
  if (raw.length <= HEARD_PER_PASS) return raw.length;
  const { row_xid, row_id } = raw[HEARD_PER_PASS - 1];
  let end = HEARD_PER_PASS;
  while (end < raw.length && raw[end].row_xid === row_xid && raw[end].row_id === row_id) end++;
  return end;
}

const toOutboxRow = (r: Record<string, unknown>): OutboxRow => ({
  workspaceId: r.workspace_id as string,
  id: String(r.id),
  kind: r.kind as OutboxRow['kind'],
  personId: (r.person_id as string) ?? null,
  payload: r.payload as Record<string, unknown>,
  createdAt: r.created_at as Date,
});
/** Relayed happenings are kept OUTBOX_RETENTION_DAYS (replays read them), then the sweep deletes them. */
export const outboxKeptMs = (config: Pick<AppConfig, 'outboxRetentionDays'>) => config.outboxRetentionDays * DAY_MS;
/** Outbox rows one replay page reads at most (each holds one or more happenings). */
const REPLAY_PAGE_ROWS = 200;
const POLL_MS = 250;

@Injectable()
export class OutboxRelayService implements OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly handlers: OutboxHandler[] = [];
  private listener: RedisClient | null = null;
  private timer: ClockTimer | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** The last pass stopped at HEARD_PER_PASS with rows left. */
  private cut = false;
  private lastStart = 0;
  private stopped = false;
  private passes = 0; // at work, in their transaction or follow-ups

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  register(handler: OutboxHandler): void {
    this.handlers.push(handler);
  }

  /** Listens for kicks on Redis and polls as a fallback. */
  async start(): Promise<void> {
    this.stopped = false;
    // Plain pub/sub, also on a cluster: a message published on any node reaches the subscribers of every node.
    this.listener = connectRedis(this.config, { lazyConnect: true, maxRetriesPerRequest: null });
    this.listener.on('error', (error) => this.logger.warn(`outbox listener: ${error.message}`));
    this.listener.on('message', () => this.kick());
    this.listener
      .subscribe(outboxChannel(this.config))
      .catch((error: Error) => this.logger.warn(`polling only: ${error.message}`));
    this.timer = this.clock.setInterval(() => this.kick(), POLL_MS);
    this.kick();
  }

  /** Starts a relay pass, or asks the running one to go round again. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        const wait = this.lastStart + RELAY_MIN_GAP_MS - this.clock.now();
        if (wait > 0) await this.clock.sleep(wait);
        if (this.stopped) break;
        this.again = false; // kicks until now are for rows this pass reads
        this.lastStart = this.clock.now();
        try {
          while (((await this.relayOnce()) === BATCH || this.cut) && !this.stopped);
        } catch (error) {
          this.logger.error(`relay pass failed: ${(error as Error).message}`);
        }
      } while (this.again && !this.stopped);
      this.running = null;
    })();
  }

  /** One batch; returns how many outbox rows it relayed. Exposed for tests. */
  async relayOnce(): Promise<number> {
    this.passes++;
    try {
      return await this.pass();
    } finally {
      this.passes--;
    }
  }

  private async pass(): Promise<number> {
    const followUps: Array<() => Promise<void>> = [];
    this.cut = false;
    const passed = await this.dataSource.transaction(async (manager): Promise<number | RestoreRepaired> => {
      // Planned each time, on the outbox's statistics of the moment: a plan kept from an empty outbox reads it by
      // bitmap and sorts.
      let next: Array<{ workspace_id: string; id: string; xid: string; mark_xid: string; mark_id: string }> =
        await manager.query(RELAY_NEXT);
      // Nothing to read may be a restore onto a server whose transaction counter is behind (restore-repair.ts).
      if (next.length === 0) return (await repairAfterRestore(manager, false)) ?? 0;
      let last = next[next.length - 1];
      const workspaceIds = [...new Set(next.map((row) => row.workspace_id))];
      const heard: Array<{ handler: number; workspace_id: string; item: unknown }> = this.handlers.length
        ? await manager.query(hearingOf(this.handlers), [workspaceIds])
        : [];
      if (heard.length > 0) {
        const listened = [...new Set(heard.map((h) => h.workspace_id))];
        const raw: Array<Record<string, unknown>> = await manager.query(RELAY_HAPPENINGS, [
          next[0].mark_xid,
          next[0].mark_id,
          last.xid,
          last.id,
          listened,
        ]);
        const cutAt = cutIndex(raw);
        if (cutAt < raw.length) {
          const end = raw[cutAt - 1];
          raw.length = cutAt;
          next = next.slice(0, next.findIndex((row) => row.xid === end.row_xid && row.id === end.row_id) + 1);
          last = next[next.length - 1];
          this.cut = true;
        }
        const rows: OutboxRow[] = raw.map(toOutboxRow);
        for (const [place, handler] of this.handlers.entries()) {
          const items = heard.filter((h) => h.handler === place);
          if (items.length === 0) continue;
          const theirs = new Set(items.map((h) => h.workspace_id));
          const followUp = await handler.handle(
            manager,
            rows.filter((row) => theirs.has(row.workspaceId)),
            items.map((h) => h.item),
          );
          if (followUp) followUps.push(followUp);
        }
      }
      await manager.query(`UPDATE outbox_relay SET xid = $1::xid8, id = $2 WHERE name = 'main'`, [last.xid, last.id]);
      return next.length;
    });
    for (const followUp of followUps) {
      await followUp().catch((error: Error) => this.logger.warn(`after relay: ${error.message}`));
    }
    if (typeof passed === 'number') return passed;
    this.logger.warn(restoreRepairedLine(passed));
    return this.pass();
  }

  /** Whether a relay pass is at work in this process (a replay leaves the moment to live deliveries). */
  get relaying(): boolean {
    return this.passes > 0;
  }

  /**
   * Happenings of one workspace written in [since, until) and relayed, in id order, a page at a time after the
   * happening `afterId` (replays read them again while they are retained). The page reads at most REPLAY_PAGE_ROWS
   * outbox rows by key before it expands them, so a page costs the same wherever it starts in a long window; none
   * answered is the window's end.
   */
  async relayedBetween(
    workspaceId: string,
    since: Date,
    until: Date,
    afterId: string | null,
    limit: number,
  ): Promise<OutboxRow[]> {
    const after = afterId ?? '-1';
    const raw: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH kept AS MATERIALIZED (SELECT o.* FROM outbox o
                      WHERE o.workspace_id = $1 AND o.id >= $6 AND o.created_at >= $2 AND o.created_at < $3
                        AND (o.xid, o.id) <= ${RELAY_MARK}
                      ORDER BY o.id LIMIT ${REPLAY_PAGE_ROWS})
       SELECT * FROM (${HAPPENINGS_FROM('kept')}) h WHERE h.id > $4 ORDER BY h.id LIMIT $5`,
      [workspaceId, since, until, after, limit, afterId ? outboxRowOf(afterId) : '0'],
    );
    return raw.map(toOutboxRow);
  }

  /** How many happenings of one workspace written in [since, until) and relayed carry any of these triggers' data. */
  async countRelayedBetween(workspaceId: string, since: Date, until: Date, triggers: string[]): Promise<number> {
    const [row]: Array<{ count: string }> = await this.dataSource.query(
      `WITH kept AS (SELECT o.* FROM outbox o
                      WHERE o.workspace_id = $1 AND o.created_at >= $2 AND o.created_at < $3
                        AND (o.xid, o.id) <= ${RELAY_MARK})
       SELECT count(*) FROM (${HAPPENINGS_FROM('kept')}) h WHERE h.payload -> 'data' ?| $4::text[]`,
      [workspaceId, since, until, triggers],
    );
    return Number(row.count);
  }

  /** Retention: deletes happenings relayed and made before `before`, a batch at a time; unrelayed ones stay. */
  deleteRelayedBefore(before: Date): Promise<number> {
    return deleteInBatches(this.dataSource, 'outbox', `created_at < $2 AND (xid, id) <= ${RELAY_MARK}`, [before]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.running;
    this.listener?.disconnect();
  }
}
