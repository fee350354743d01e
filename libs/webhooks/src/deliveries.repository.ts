// The only code here that stores and reads deliveries and their attempts, beside their claims and settlements
// (delivery-claims.repository.ts): the relay's insert, recovery's and the poll's due times, retention and the
// delivery log (docs/webhooks.md#delivery-retries-and-the-log). Due times are the injected clock's, passed as
// parameters.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, CLOCK, deleteInBatches, SYSTEM_CLOCK } from '@app/platform';
import { CLAIM_SECONDS } from './delivery-claims.repository';
import type { NewDelivery, DeliveryRow, AttemptRow } from './deliveries.types';

export type {
  NewDelivery,
  ClaimedAttempt,
  DeliveryKey,
  Settlement,
  AttemptRecord,
  DeliveryRow,
  AttemptRow,
} from './deliveries.types';

const DELIVERY_COLUMNS =
  'd.workspace_id, d.id, d.endpoint_id, d.type, d.body, d.state, d.attempts, d.next_attempt_at, d.created_at';
const ATTEMPT_COLUMNS =
  'SELECT delivery_id, number, started_at, duration_ms, status_code, body_excerpt, error FROM delivery_attempts';

@Injectable()
export class DeliveriesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /**
   * Stores new deliveries due now; a delivery already made for the same outbox row and endpoint is kept.
   * A row marked `claimed` (pending, due now) is stored with its first attempt claimed, as claim() would
   * (attempts 1, claimed for CLAIM_SECONDS from the clock's now): the relay sends it without a claim's round trip.
   */
  async insert(
    manager: EntityManager,
    rows: NewDelivery[],
  ): Promise<Array<{ workspace_id: string; id: string; state: string; claimed: boolean }>> {
    if (rows.length === 0) return [];
    // One JSON parameter rather than nine arrays (bodies included): JSON.stringify costs the worker a fraction of pg's
    // array escaping. A body's tail shared with other rows goes once, in $2, and each row sends the rest (for a
    // happening heard by 10 addresses, a tenth of the bodies' bytes for the worker to escape and PostgreSQL to parse).
    const tails = new Map<string, number>();
    const json = JSON.stringify(
      rows.map((r) => {
        let h: number | undefined;
        let b = r.body;
        if (r.bodyTail !== undefined && b.endsWith(r.bodyTail)) {
          h = tails.get(r.bodyTail);
          if (h === undefined) tails.set(r.bodyTail, (h = tails.size));
          b = b.slice(0, b.length - r.bodyTail.length);
        }
        return {
          w: r.workspaceId,
          i: r.id,
          e: r.endpointId,
          o: r.outboxId,
          t: r.type,
          b,
          h,
          s: r.state,
          ms: r.dueInMs === undefined ? undefined : Math.round(r.dueInMs),
          c: r.claimed === true && r.state !== 'failed' && !r.dueInMs,
        };
      }),
    );
    return manager.query(
      `INSERT INTO deliveries (workspace_id, id, endpoint_id, outbox_id, type, body, state, next_attempt_at, attempts,
        claimed_until)
       SELECT w, i, e, o, t, b || coalesce(tail, ''), coalesce(s, 'pending'), CASE WHEN s = 'failed' THEN NULL
         ELSE $3::timestamptz + coalesce(ms, 0) * interval '1 millisecond' END,
              CASE WHEN c THEN 1 ELSE 0 END, CASE WHEN c
                THEN $3::timestamptz + interval '${CLAIM_SECONDS} seconds' END
         FROM json_to_recordset($1::json) AS u(w text, i text, e text, o bigint, t text, b text, h int, s text, ms int,
           c bool)
         LEFT JOIN (SELECT n::int - 1 AS n, tail
           FROM json_array_elements_text($2::json) WITH ORDINALITY AS x(tail, n)) x ON x.n = u.h
       ON CONFLICT (workspace_id, outbox_id, endpoint_id) DO NOTHING
       RETURNING workspace_id, id, state, claimed_until IS NOT NULL AS claimed`,
      [json, JSON.stringify([...tails.keys()]), new Date(this.clock.now())],
    );
  }

  /**
   * Recover: every failed delivery of the address created since `since` becomes pending again, due one
   * after another `everyMs` apart in the order they were made. A delivery two recoveries both pick
   * is taken by one (the state is checked again under the row lock).
   */
  async makeFailedDue(
    workspaceId: string,
    endpointId: string,
    since: Date,
    everyMs: number,
  ): Promise<Array<{ id: string; attempts: number; due_in_ms: number }>> {
    const [rows] = await this.dataSource.query(
      `UPDATE deliveries d
          SET state = 'pending', next_attempt_at = $5::timestamptz + p.n * $4::float8 * interval '1 millisecond'
         FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS n FROM deliveries
                WHERE workspace_id = $1 AND endpoint_id = $2 AND state = 'failed' AND created_at >= $3) p
        WHERE d.workspace_id = $1 AND d.id = p.id AND d.state = 'failed'
       RETURNING d.id, d.attempts, (p.n * $4::float8)::int AS due_in_ms`,
      [workspaceId, endpointId, since, everyMs, new Date(this.clock.now())],
    );
    return (rows as Array<{ id: string; attempts: number; due_in_ms: number }>).sort(
      (a, b) => a.due_in_ms - b.due_in_ms,
    );
  }

  /** Pending deliveries due for at least `graceMs` and not claimed: their job was lost or never queued. */
  async dueUnclaimed(
    graceMs: number,
    limit: number,
  ): Promise<Array<{ workspace_id: string; id: string; attempts: number }>> {
    return this.dataSource.query(
      `SELECT workspace_id, id, attempts FROM deliveries
        WHERE state = 'pending' AND next_attempt_at <= $3::timestamptz - $1::int * interval '1 millisecond'
          AND (claimed_until IS NULL OR claimed_until < $3::timestamptz)
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit, new Date(this.clock.now())],
    );
  }

  /** Retention: deletes deliveries (and their attempts) created before `before`, a batch at a time. */
  deleteCreatedBefore(before: Date): Promise<number> {
    return deleteInBatches(this.dataSource, 'deliveries', 'created_at < $2', [before]);
  }

  /**
   * One delivery and its attempts in one statement, so the two agree: read apart, an attempt settled between
   * them showed a pending delivery with its attempt's answer, or a retried one without it.
   */
  async get(workspaceId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS}, coalesce((SELECT json_agg(a ORDER BY a.number) FROM (${ATTEMPT_COLUMNS}
                 WHERE workspace_id = d.workspace_id AND delivery_id = d.id) a), '[]') AS attempt_rows
         FROM deliveries d WHERE d.workspace_id = $1 AND d.id = $2`,
      [workspaceId, deliveryId],
    );
    return row ?? null;
  }

  /** Stores a delivery outside the relay (Send a test), due now. */
  async insertOne(row: NewDelivery): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO deliveries (workspace_id, id, endpoint_id, outbox_id, type, body, next_attempt_at) VALUES ` +
        `($1, $2, $3, $4, $5, $6, $7)`,
      [row.workspaceId, row.id, row.endpointId, row.outboxId, row.type, row.body, new Date(this.clock.now())],
    );
  }

  /** The delivery log: the last `limit` deliveries of each endpoint (only in `state` when named), newest first. */
  async latestOf(
    workspaceId: string,
    endpointIds: readonly string[],
    limit: number,
    state: string | null = null,
  ): Promise<DeliveryRow[]> {
    return this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM unnest($2::text[]) AS e(id)
         CROSS JOIN LATERAL (SELECT * FROM deliveries x WHERE x.workspace_id = $1 AND x.endpoint_id = e.id
                               AND ($4::text IS NULL OR x.state = $4)
                              ORDER BY x.created_at DESC, x.id DESC LIMIT $3) d
        ORDER BY d.created_at DESC, d.id DESC`,
      [workspaceId, endpointIds, limit, state],
    );
  }

  async attemptsOf(workspaceId: string, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    return this.dataSource.query(
      `${ATTEMPT_COLUMNS} WHERE workspace_id = $1 AND delivery_id = ANY($2::text[]) ORDER BY delivery_id, number`,
      [workspaceId, deliveryIds],
    );
  }
}
