// The only code here that queries deliveries and delivery_attempts (interface.md "Delivery rules":
// Concurrency, Retry body, Retention). Every attempt is claimed in one UPDATE before it is sent.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteInBatches, GroupCommit } from '@app/platform';
import type {
  NewDelivery,
  ClaimedAttempt,
  DeliveryKey,
  Settlement,
  AttemptRecord,
  DeliveryRow,
  AttemptRow,
} from './deliveries.types';

/** How long a claim holds an attempt: more than the ten seconds an attempt may take. */
export const CLAIM_SECONDS = 30;

/**
 * An address's previous signing secret while it still signs (a rotation's overlap), else NULL; `e` names
 * webhook_endpoints.
 */
export const previousSecretSql = (e: string) =>
  `CASE WHEN ${e}.previous_secret_until > now() THEN ${e}.previous_secret_sealed END AS previous_secret_sealed`;

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
/**
 * `d.state = 'pending'` for statements that name their deliveries by key (claims, settlements, give-backs). Written so
 * it does not match `deliveries_due`'s predicate: with the plain test the planner may read every pending delivery
 * through that index and hash them (its estimate of pending ones dates from a quiet moment), which in a burst of 10,000
 * made each settlement of 100 read all 10,000 (46 ms against 6 ms by the key, psql on a copy of the schema; issue 32).
 */
const PENDING_BY_KEY = `coalesce(d.state, '') = 'pending'`;
export const LOST_ATTEMPT = 'The worker stopped during this attempt; whether the receiver got it is unknown.';

@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores new deliveries due now; a delivery already made for the same outbox row and endpoint is kept.
   * A row marked `claimed` (pending, due now) is stored with its first attempt claimed, as claim() would
   * (attempts 1, claimed for CLAIM_SECONDS from this statement): the relay sends it without a claim's round trip.
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
         ELSE now() + coalesce(ms, 0) * interval '1 millisecond' END,
              CASE WHEN c THEN 1 ELSE 0 END, CASE WHEN c
                THEN clock_timestamp() + interval '${CLAIM_SECONDS} seconds' END
         FROM json_to_recordset($1::json) AS u(w text, i text, e text, o bigint, t text, b text, h int, s text, ms int,
           c bool)
         LEFT JOIN (SELECT n::int - 1 AS n, tail
           FROM json_array_elements_text($2::json) WITH ORDINALITY AS x(tail, n)) x ON x.n = u.h
       ON CONFLICT (workspace_id, outbox_id, endpoint_id) DO NOTHING
       RETURNING workspace_id, id, state, claimed_until IS NOT NULL AS claimed`,
      [json, JSON.stringify([...tails.keys()])],
    );
  }

  // Claims and settlements of concurrent attempts are written together (group commit): under load a
  // worker pays one round trip per batch instead of two per attempt, alone it pays one per attempt.
  private readonly claims = new GroupCommit<DeliveryKey, ClaimedAttempt | null>((keys) => this.claimMany(keys));
  private readonly settlements = new GroupCommit<DeliveryKey & { attempt: AttemptRecord }, Settlement | null>((items) =>
    this.settleMany(items),
  );

  /**
   * Claims the next attempt: only a pending delivery that is due and not claimed (or whose claim
   * expired) is taken, and taking it counts the attempt. A due delivery of a disabled address is not
   * sent: it becomes failed (to be recovered once the address is enabled). Two claimers of one row: the second skips
   * the first's row lock, or sees its live claim, and gets nothing; an id asked twice in one batch is claimed once.
   */
  claim(workspaceId: string, deliveryId: string): Promise<ClaimedAttempt | null> {
    return this.claims.submit({ workspaceId, deliveryId });
  }

  /**
   * Records an attempt and settles the delivery, only while this attempt's claim still holds it.
   * A Retry asked for while the attempt was out (next_attempt_at moved after the claim) keeps a
   * failed delivery due now instead of scheduling it. Returns the delivery's state and, when it is
   * still pending, how long until it is due; null when the claim was lost.
   */
  settle(workspaceId: string, deliveryId: string, attempt: AttemptRecord): Promise<Settlement | null> {
    return this.settlements.submit({ workspaceId, deliveryId, attempt });
  }

  private async claimMany(keys: DeliveryKey[]): Promise<Array<ClaimedAttempt | null>> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH due AS (
         SELECT d.workspace_id, d.id, d.claimed_until AS previous_claim
           FROM deliveries d JOIN unnest($1::text[], $2::text[]) AS k(w, i) ON d.workspace_id = k.w AND d.id = k.i
          WHERE ${PENDING_BY_KEY} AND d.next_attempt_at <= now() AND (d.claimed_until IS NULL
            OR d.claimed_until < now())
          FOR UPDATE OF d SKIP LOCKED),
       claimed AS (
         UPDATE deliveries d SET claimed_until = now() + interval '${CLAIM_SECONDS} seconds', attempts = d.attempts + 1
           FROM due, webhook_endpoints e
          WHERE d.workspace_id = due.workspace_id AND d.id = due.id AND e.workspace_id = d.workspace_id
            AND e.id = d.endpoint_id
            AND e.disabled_at IS NULL
         RETURNING d.workspace_id, d.id, d.endpoint_id, d.attempts, d.type, d.body, e.url, e.secret_sealed,
           ${previousSecretSql('e')},
           e.rate_limit_per_second, due.previous_claim IS NOT NULL AS took_over),
       held AS (
         UPDATE deliveries d SET state = 'failed', next_attempt_at = NULL, claimed_until = NULL
           FROM due, webhook_endpoints e
          WHERE d.workspace_id = due.workspace_id AND d.id = due.id AND e.workspace_id = d.workspace_id
            AND e.id = d.endpoint_id
            AND e.disabled_at IS NOT NULL),
       lost AS (
         INSERT INTO delivery_attempts (workspace_id, delivery_id, number, error)
         SELECT workspace_id, id, attempts - 1, $3 FROM claimed WHERE took_over
         ON CONFLICT DO NOTHING)
       SELECT * FROM claimed`,
      [keys.map((k) => k.workspaceId), keys.map((k) => k.deliveryId), LOST_ATTEMPT],
    );
    const byKey = new Map(rows.map((row) => [`${row.workspace_id}/${row.id}`, row]));
    return keys.map((k) => {
      const key = `${k.workspaceId}/${k.deliveryId}`;
      const row = byKey.get(key);
      if (!row) return null;
      byKey.delete(key); // an id asked twice in one batch goes out once
      return {
        number: row.attempts as number,
        type: row.type as string,
        body: row.body as string,
        endpointId: row.endpoint_id as string,
        url: row.url as string,
        secretSealed: row.secret_sealed as string,
        previousSecretSealed: (row.previous_secret_sealed as string | null) ?? null,
        rateLimitPerSecond: (row.rate_limit_per_second as number | null) ?? null,
        tookOver: row.took_over as boolean,
      };
    });
  }

  private async settleMany(items: Array<DeliveryKey & { attempt: AttemptRecord }>): Promise<Array<Settlement | null>> {
    // One JSON parameter rather than ten arrays: JSON.stringify costs the worker a fraction of pg's array escaping.
    const settlements = items.map(({ workspaceId, deliveryId, attempt: a }) => ({
      w: workspaceId,
      i: deliveryId,
      n: a.number,
      started_at: a.startedAt,
      duration_ms: a.durationMs,
      status_code: a.status,
      body_excerpt: a.bodyExcerpt,
      error: a.error,
      ok: a.ok,
      next_ms: a.nextDelayMs,
    }));
    // Planned at each run, not prepared: a generic plan made while the table was small read all of it in every
    // settlement.
    const rows: Array<{ workspace_id: string; id: string; state: string; due_in_ms: number | null }> =
      await this.dataSource.query(
        `WITH u AS (
         SELECT * FROM json_to_recordset($1::json)
           AS u(w text, i text, n int, started_at timestamptz, duration_ms int, status_code int, body_excerpt text,
             error text, ok bool, next_ms bigint)),
       recorded AS (
         INSERT INTO delivery_attempts (workspace_id, delivery_id, number, started_at, duration_ms, status_code,
           body_excerpt, error)
         SELECT w, i, n, started_at, duration_ms, status_code, body_excerpt, error FROM u
         ON CONFLICT (workspace_id, delivery_id, number) DO UPDATE
           SET started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms,
           status_code = EXCLUDED.status_code, body_excerpt = EXCLUDED.body_excerpt, error = EXCLUDED.error),
       settled AS (
         UPDATE deliveries d SET claimed_until = NULL,
           state = CASE WHEN u.ok THEN 'succeeded'
                        WHEN d.next_attempt_at > d.claimed_until - interval '${CLAIM_SECONDS} seconds' THEN 'pending'
                        WHEN u.next_ms IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = CASE WHEN u.ok THEN NULL
                        WHEN d.next_attempt_at > d.claimed_until - interval '${CLAIM_SECONDS} seconds'
                          THEN d.next_attempt_at
                        WHEN u.next_ms IS NULL THEN NULL ELSE now() + u.next_ms * interval '1 millisecond' END
           FROM u
          WHERE d.workspace_id = u.w AND d.id = u.i AND d.attempts = u.n AND ${PENDING_BY_KEY}
            AND d.claimed_until IS NOT NULL
         RETURNING d.workspace_id, d.id, d.state, d.next_attempt_at)
       SELECT workspace_id, id, state, GREATEST(0, ceil(EXTRACT(EPOCH
         FROM (next_attempt_at - now())) * 1000))::int AS due_in_ms FROM settled`,
        [JSON.stringify(settlements)],
      );
    const byKey = new Map(rows.map((row) => [`${row.workspace_id}/${row.id}`, row]));
    return items.map((item) => {
      const row = byKey.get(`${item.workspaceId}/${item.deliveryId}`);
      return row ? { state: row.state, dueInMs: row.due_in_ms ?? 0 } : null;
    });
  }

  /**
   * A manual Retry: the delivery becomes pending and due now, whatever its state. inFlight tells
   * that an attempt holds a live claim; that attempt's settlement sees the Retry and honours it.
   */
  async makeDue(workspaceId: string, deliveryId: string): Promise<{ attempts: number; inFlight: boolean } | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE deliveries SET state = 'pending', next_attempt_at = clock_timestamp()
        WHERE workspace_id = $1 AND id = $2
       RETURNING attempts, coalesce(claimed_until > now(), false) AS in_flight`,
      [workspaceId, deliveryId],
    );
    const row = rows?.[0];
    return row ? { attempts: row.attempts, inFlight: row.in_flight } : null;
  }

  /**
   * Gives a claimed attempt back unsent (the address's rate limit has no room until later): the
   * attempt is not counted and the delivery is due again after `dueInMs`.
   */
  async release(workspaceId: string, deliveryId: string, number: number, dueInMs: number): Promise<boolean> {
    const [, count] = await this.dataSource.query(
      `UPDATE deliveries SET claimed_until = NULL, attempts = attempts - 1, next_attempt_at = now() + $4::int * interval '1 millisecond'
        WHERE workspace_id = $1 AND id = $2 AND attempts = $3 AND state = 'pending' AND claimed_until IS NOT NULL`,
      [workspaceId, deliveryId, number, Math.round(dueInMs)],
    );
    return count > 0;
  }

  /**
   * Gives first attempts claimed at insert back unsent (shutdown, or held too long to send within the claim): due now,
   * not counted.
   */
  async releaseFirst(keys: DeliveryKey[]): Promise<DeliveryKey[]> {
    if (keys.length === 0) return [];
    const [rows] = await this.dataSource.query(
      `UPDATE deliveries d SET claimed_until = NULL, attempts = 0
         FROM unnest($1::text[], $2::text[]) AS k(w, i)
        WHERE d.workspace_id = k.w AND d.id = k.i AND d.attempts = 1 AND ${PENDING_BY_KEY}
          AND d.claimed_until IS NOT NULL
       RETURNING d.workspace_id, d.id`,
      [keys.map((k) => k.workspaceId), keys.map((k) => k.deliveryId)],
    );
    return (rows as Array<{ workspace_id: string; id: string }>).map((r) => ({
      workspaceId: r.workspace_id,
      deliveryId: r.id,
    }));
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
      `UPDATE deliveries d SET state = 'pending', next_attempt_at = now() + p.n * $4::float8 * interval '1 millisecond'
         FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS n FROM deliveries
                WHERE workspace_id = $1 AND endpoint_id = $2 AND state = 'failed' AND created_at >= $3) p
        WHERE d.workspace_id = $1 AND d.id = p.id AND d.state = 'failed'
       RETURNING d.id, d.attempts, (p.n * $4::float8)::int AS due_in_ms`,
      [workspaceId, endpointId, since, everyMs],
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
        WHERE state = 'pending' AND next_attempt_at <= now() - $1::int * interval '1 millisecond'
          AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit],
    );
  }

  /** Retention: deletes deliveries (and their attempts) created before `before`, a batch at a time. */
  deleteCreatedBefore(before: Date): Promise<number> {
    return deleteInBatches(this.dataSource, 'deliveries', 'created_at < $2', [before]);
  }

  async get(workspaceId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM deliveries d WHERE d.workspace_id = $1 AND d.id = $2`,
      [workspaceId, deliveryId],
    );
    return row ?? null;
  }

  /** Stores a delivery outside the relay (Send a test), due now. */
  async insertOne(row: NewDelivery): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO deliveries (workspace_id, id, endpoint_id, outbox_id, type, body, next_attempt_at) VALUES ` +
        `($1, $2, $3, $4, $5, $6, now())`,
      [row.workspaceId, row.id, row.endpointId, row.outboxId, row.type, row.body],
    );
  }

  /** The delivery log: the last `limit` deliveries of each endpoint, newest first. */
  async latestOf(workspaceId: string, endpointIds: readonly string[], limit: number): Promise<DeliveryRow[]> {
    return this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM unnest($2::text[]) AS e(id)
         CROSS JOIN LATERAL (SELECT * FROM deliveries x WHERE x.workspace_id = $1 AND x.endpoint_id = e.id
                              ORDER BY x.created_at DESC, x.id DESC LIMIT $3) d
        ORDER BY d.created_at DESC, d.id DESC`,
      [workspaceId, endpointIds, limit],
    );
  }

  async attemptsOf(workspaceId: string, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    return this.dataSource.query(
      `SELECT delivery_id, number, started_at, duration_ms, status_code, body_excerpt, error FROM delivery_attempts
        WHERE workspace_id = $1 AND delivery_id = ANY($2::text[]) ORDER BY delivery_id, number`,
      [workspaceId, deliveryIds],
    );
  }
}
