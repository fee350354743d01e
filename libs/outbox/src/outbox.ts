// Happenings that other contexts react to, written in the same transaction as the row that caused
// them (style guide: cross-context reactions go through the outbox, never in-memory emitters).
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AppConfig, Clock, ClockTimer, RedisClient } from '@app/platform';
import { CLOCK, CONFIG, isoText, REDIS, SYSTEM_CLOCK } from '@app/platform';

export const outboxChannel = (config: Pick<AppConfig, 'redisPrefix'>) => `${config.redisPrefix}:outbox`;

export interface Happening {
  workspaceId: string;
  /** What happened to the person; the kinds are the contexts' own (events' catalogue names them). */
  kind: string;
  personId: string | null;
  payload: Record<string, unknown>;
}

/** The data of a happening per trigger that applies, most specific first (docs/webhooks.md#triggers-and-bodies). */
export type TriggerData = Record<string, Record<string, unknown>>;

/**
 * The one builder of a happening: its kind is the most specific trigger (the first key of `data`), and
 * its payload carries the moment and the data per trigger, so each webhook address gets the most
 * specific trigger it listens to.
 */
export function happening(workspaceId: string, personId: string | null, at: Date, data: TriggerData): Happening {
  const kind = Object.keys(data)[0];
  return { workspaceId, kind, personId, payload: { at: isoText(at), data } };
}

/** A happening as the relay hands it to handlers: `id` is unique per happening (see HAPPENINGS_FROM). */
export interface OutboxRow extends Happening {
  id: string;
  createdAt: Date;
}

/**
 * The outbox holds one row per writing transaction (and workspace), its happenings in a jsonb array
 * of `{kind, personId, payload}`. A happening's id is its row's id times 65,536 plus its place in the
 * array: unique, in order, and stable across replays, so deliveries and automation runs stay unique
 * per happening (their `outbox_id` columns hold it). `rows` is a relation of outbox rows `o`; each
 * happening also carries its row's place in the relay's order (row_xid, row_id).
 */
export const HAPPENINGS_FROM = (
  rows: string,
) => `SELECT o.workspace_id, o.id * 65536 + (h.n - 1) AS id, h.v ->> 'kind' AS kind,
       h.v ->> 'personId' AS person_id, h.v -> 'payload' AS payload, o.created_at, o.xid AS row_xid, o.id AS row_id
  FROM ${rows} o CROSS JOIN LATERAL jsonb_array_elements(o.happenings) WITH ORDINALITY AS h(v, n)`;

/**
 * The relay's high-water mark as a row value: an outbox row `o` is relayed when `(o.xid, o.id) <=` it.
 * Scalar subqueries rather than a join, so the comparison is an index condition on (xid, id).
 */
export const RELAY_MARK = `((SELECT xid FROM outbox_relay WHERE name = 'main'), (SELECT id FROM outbox_relay WHERE name = 'main'))`;

/** The outbox row a happening id belongs to (HAPPENINGS_FROM). */
export const outboxRowOf = (happeningId: string): string => (BigInt(happeningId) >> 16n).toString();

/**
 * Happenings one outbox row can hold, so their ids (row id × 65,536 + place) stay unique. A batch makes a few hundred.
 */
const MAX_HAPPENINGS_PER_ROW = 65_536;

/** The happenings of one transaction as the outbox stores them (the workspace is the row's). */
export function outboxDocument(happenings: Happening[]): Array<Pick<Happening, 'kind' | 'personId' | 'payload'>> {
  if (happenings.length > MAX_HAPPENINGS_PER_ROW)
    throw new Error(
      `one transaction made ${happenings.length} happenings; at most ${MAX_HAPPENINGS_PER_ROW} fit an outbox row`,
    );
  return happenings.map((h) => ({ kind: h.kind, personId: h.personId, payload: h.payload }));
}

/**
 * Happenings as a data-modifying CTE (`happenings`) reading `doc -> 'happenings'` (outboxDocument
 * of happenings of the workspace `workspace`), for a caller that writes its rows and their happenings with one
 * statement (the ingest write): one outbox row for the whole transaction, none when there are none.
 */
export function outboxWriteCte(doc: string, workspace: string): string {
  return `happenings AS (
  INSERT INTO outbox (workspace_id, happenings)
  SELECT ${workspace}, ${doc} -> 'happenings' WHERE jsonb_array_length(${doc} -> 'happenings') > 0
  RETURNING 1)`;
}

/**
 * An outbox row written by a data-modifying CTE `name` from `select`, a SELECT of (workspace id, jsonb array of
 * happenings as outboxDocument makes them) that yields no row when there are none: for a statement that computes its
 * happenings in SQL (a segment's entries and exits).
 */
export function outboxInsertCte(name: string, select: string): string {
  return `${name} AS (
  INSERT INTO outbox (workspace_id, happenings) ${select}
  RETURNING 1)`;
}

/**
 * Least time between the starts of two passes. An idle relay starts a pass at the first kick;
 * under steady writes, when every commit kicks, passes come at most this often and each carries the
 * transactions of the gap (a pass costs about the same for one transaction as for twenty). A backlog
 * is drained pass after pass with no gap.
 */
export const RELAY_MIN_GAP_MS = 50;

@Injectable()
export class OutboxWriter {
  private lastKick = 0;
  private kickLater: ClockTimer | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /**
   * Tells the worker's relay there is work, after the transaction that wrote the rows committed.
   * Best effort: while Redis is down the relay's poll finds the rows anyway. At most one kick per
   * RELAY_MIN_GAP_MS, as the relay starts no pass sooner: a commit within the gap of the last kick
   * is told by one kick at the gap's end.
   */
  kick(): void {
    if (this.kickLater) return;
    const wait = this.lastKick + RELAY_MIN_GAP_MS - this.clock.now();
    if (wait > 0) {
      this.kickLater = this.clock
        .setTimeout(() => {
          this.kickLater = null;
          this.kick();
        }, wait)
        .unref();
      return;
    }
    this.lastKick = this.clock.now();
    this.redis.publish(outboxChannel(this.config), '1').catch(() => undefined);
  }

  /** Must be called with the manager of the transaction that wrote the cause: one row per workspace. */
  async write(manager: EntityManager, happenings: Happening[]): Promise<void> {
    const byWorkspace = new Map<string, Happening[]>();
    for (const h of happenings) byWorkspace.set(h.workspaceId, [...(byWorkspace.get(h.workspaceId) ?? []), h]);
    for (const [workspaceId, some] of byWorkspace) {
      await manager.query(`INSERT INTO outbox (workspace_id, happenings) VALUES ($1, $2::jsonb)`, [
        workspaceId,
        JSON.stringify(outboxDocument(some)),
      ]);
    }
  }
}
