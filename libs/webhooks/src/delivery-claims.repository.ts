// The only code here that claims and settles delivery attempts (docs/webhooks.md#delivery-retries-and-the-log):
// every attempt is claimed in one UPDATE before it is sent, and settled only while its claim holds, so a
// delivery is never sent twice at once. Claim and due times are the injected clock's, passed as parameters.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, CLOCK, GroupCommit, SYSTEM_CLOCK } from '@app/platform';
import type { AttemptRecord, ClaimedAttempt, DeliveryKey, Settlement } from './deliveries.types';

/** How long a claim holds an attempt: more than the ten seconds an attempt may take. */
export const CLAIM_SECONDS = 30;

export const LOST_ATTEMPT = 'The worker stopped during this attempt; whether the receiver got it is unknown.';

/**
 * An address's previous signing secret while it still signs (a rotation's overlap), else NULL; `e` names
 * webhook_endpoints. The database's time decides the overlap: it is no claim or due time, and the relay's hearing
 * reads it too, in a statement of its own with no parameter for a time.
 */
export const previousSecretSql = (e: string) =>
  `CASE WHEN ${e}.previous_secret_until > now() THEN ${e}.previous_secret_sealed END AS previous_secret_sealed`;

/**
 * `d.state = 'pending'` for statements that name their deliveries by key (claims, settlements, give-backs). Written so
 * it does not match `deliveries_due`'s predicate: with the plain test the planner may read every pending delivery
 * through that index and hash them (its estimate of pending ones dates from a quiet moment), which in a burst of 10,000
 * made each settlement of 100 read all 10,000 (46 ms against 6 ms by the key, psql on a copy of the schema).
 */
const PENDING_BY_KEY = `coalesce(d.state, '') = 'pending'`;

const CLAIM = `WITH due AS (
         SELECT d.workspace_id, d.id, d.claimed_until AS previous_claim
           FROM deliveries d JOIN unnest($1::text[], $2::text[]) AS k(w, i) ON d.workspace_id = k.w AND d.id = k.i
          WHERE ${PENDING_BY_KEY} AND d.next_attempt_at <= $4::timestamptz AND (d.claimed_until IS NULL
            OR d.claimed_until < $4::timestamptz)
          FOR UPDATE OF d SKIP LOCKED),
       claimed AS (
         UPDATE deliveries d
            SET claimed_until = $4::timestamptz + interval '${CLAIM_SECONDS} seconds', attempts = d.attempts + 1
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
       SELECT * FROM claimed`;

// A Retry asked for while the attempt was out moved next_attempt_at past the claim's start (claimed_until less
// CLAIM_SECONDS): the settlement keeps such a delivery due then instead of scheduling or failing it. Due times are
// whole milliseconds of the clock but for that Retry's microsecond past the claim (makeDue), so due_in_ms rounds
// down: the microsecond is no wait.
const RETRIED = `d.next_attempt_at > d.claimed_until - interval '${CLAIM_SECONDS} seconds'`;

const SETTLE = `WITH u AS (
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
                        WHEN ${RETRIED} THEN 'pending'
                        WHEN u.next_ms IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = CASE WHEN u.ok THEN NULL
                        WHEN ${RETRIED} THEN d.next_attempt_at
                        WHEN u.next_ms IS NULL THEN NULL ELSE $2::timestamptz + u.next_ms * interval '1 millisecond' END
           FROM u
          WHERE d.workspace_id = u.w AND d.id = u.i AND d.attempts = u.n AND ${PENDING_BY_KEY}
            AND d.claimed_until IS NOT NULL
         RETURNING d.workspace_id, d.id, d.state, d.next_attempt_at)
       SELECT workspace_id, id, state, GREATEST(0, floor(EXTRACT(EPOCH
         FROM (next_attempt_at - $2::timestamptz)) * 1000))::int AS due_in_ms FROM settled`;

const claimedAttemptOf = (row: Record<string, unknown>): ClaimedAttempt => ({
  number: row.attempts as number,
  type: row.type as string,
  body: row.body as string,
  endpointId: row.endpoint_id as string,
  url: row.url as string,
  secretSealed: row.secret_sealed as string,
  previousSecretSealed: (row.previous_secret_sealed as string | null) ?? null,
  rateLimitPerSecond: (row.rate_limit_per_second as number | null) ?? null,
  tookOver: row.took_over as boolean,
});

@Injectable()
export class DeliveryClaimsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

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
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(CLAIM, [
      keys.map((k) => k.workspaceId),
      keys.map((k) => k.deliveryId),
      LOST_ATTEMPT,
      new Date(this.clock.now()),
    ]);
    const byKey = new Map(rows.map((row) => [`${row.workspace_id}/${row.id}`, row]));
    return keys.map((k) => {
      const key = `${k.workspaceId}/${k.deliveryId}`;
      const row = byKey.get(key);
      if (!row) return null;
      byKey.delete(key); // an id asked twice in one batch goes out once
      return claimedAttemptOf(row);
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
      await this.dataSource.query(SETTLE, [JSON.stringify(settlements), new Date(this.clock.now())]);
    const byKey = new Map(rows.map((row) => [`${row.workspace_id}/${row.id}`, row]));
    return items.map((item) => {
      const row = byKey.get(`${item.workspaceId}/${item.deliveryId}`);
      return row ? { state: row.state, dueInMs: row.due_in_ms ?? 0 } : null;
    });
  }

  /**
   * A manual Retry: the delivery becomes pending and due now, whatever its state. inFlight tells
   * that an attempt holds a live claim; that attempt's settlement sees the Retry and honours it: the new due time is
   * kept after that claim's start (by a microsecond when the clock has not moved since), which is how it tells.
   */
  async makeDue(workspaceId: string, deliveryId: string): Promise<{ attempts: number; inFlight: boolean } | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE deliveries SET state = 'pending', next_attempt_at = GREATEST($3::timestamptz,
         claimed_until - interval '${CLAIM_SECONDS} seconds' + interval '1 microsecond')
        WHERE workspace_id = $1 AND id = $2
       RETURNING attempts, coalesce(claimed_until > $3::timestamptz, false) AS in_flight`,
      [workspaceId, deliveryId, new Date(this.clock.now())],
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
      `UPDATE deliveries
          SET claimed_until = NULL, attempts = attempts - 1,
              next_attempt_at = $5::timestamptz + $4::int * interval '1 millisecond'
        WHERE workspace_id = $1 AND id = $2 AND attempts = $3 AND state = 'pending' AND claimed_until IS NOT NULL`,
      [workspaceId, deliveryId, number, Math.round(dueInMs), new Date(this.clock.now())],
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
}
