// The only code here that queries deliveries and delivery_attempts (interface.md "Delivery rules":
// Concurrency, Retry body, Retention). Every attempt is claimed in one UPDATE before it is sent.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** How long a claim holds an attempt: more than the ten seconds an attempt may take. */
export const CLAIM_SECONDS = 30;

export interface NewDelivery {
  workspaceId: string;
  id: string;
  endpointId: string;
  outboxId: string | null;
  type: string;
  body: string;
}

export interface ClaimedAttempt {
  /** The number of this attempt (1 for the first). */
  number: number;
  type: string;
  body: string;
  url: string;
  secretSealed: string;
  /** The previous attempt was claimed and never finished: its worker stopped mid-attempt. */
  tookOver: boolean;
}

export interface AttemptRecord {
  number: number;
  startedAt: Date;
  ok: boolean;
  durationMs: number;
  status?: number;
  bodyExcerpt?: string;
  error?: string;
  /** Wait before the next attempt; null when this was the last one. */
  nextDelayMs: number | null;
}

export interface DeliveryRow {
  workspace_id: string;
  id: string;
  endpoint_id: string;
  type: string;
  body: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  number: number;
  started_at: Date;
  duration_ms: number | null;
  status_code: number | null;
  body_excerpt: string | null;
  error: string | null;
}

const DELIVERY_COLUMNS = 'd.workspace_id, d.id, d.endpoint_id, d.type, d.body, d.state, d.attempts, d.next_attempt_at, d.created_at';
export const LOST_ATTEMPT = 'The worker stopped during this attempt; whether the receiver got it is unknown.';

@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores new deliveries due now; a delivery already made for the same outbox row and endpoint is kept. */
  async insert(manager: EntityManager, rows: NewDelivery[]): Promise<Array<{ workspace_id: string; id: string }>> {
    if (rows.length === 0) return [];
    return manager.query(
      `INSERT INTO deliveries (workspace_id, id, endpoint_id, outbox_id, type, body, next_attempt_at)
       SELECT w, i, e, o, t, b, now() FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[]) AS u(w, i, e, o, t, b)
       ON CONFLICT (workspace_id, outbox_id, endpoint_id) DO NOTHING
       RETURNING workspace_id, id`,
      [rows.map((r) => r.workspaceId), rows.map((r) => r.id), rows.map((r) => r.endpointId), rows.map((r) => r.outboxId), rows.map((r) => r.type), rows.map((r) => r.body)],
    );
  }

  /**
   * Claims the next attempt: only a pending delivery that is due and not claimed (or whose claim
   * expired) is taken, and taking it counts the attempt. Two claimers of one row: the second waits
   * for the first's row lock, re-reads the row, finds the live claim and gets nothing.
   */
  async claim(workspaceId: string, deliveryId: string): Promise<ClaimedAttempt | null> {
    const [rows] = await this.dataSource.query(
      `WITH due AS (
         SELECT workspace_id, id, claimed_until AS previous_claim FROM deliveries
          WHERE workspace_id = $1 AND id = $2 AND state = 'pending' AND next_attempt_at <= now()
            AND (claimed_until IS NULL OR claimed_until < now())
          FOR UPDATE)
       UPDATE deliveries d SET claimed_until = now() + interval '${CLAIM_SECONDS} seconds', attempts = d.attempts + 1
         FROM due, webhook_endpoints e
        WHERE d.workspace_id = due.workspace_id AND d.id = due.id AND e.workspace_id = d.workspace_id AND e.id = d.endpoint_id
       RETURNING d.attempts, d.type, d.body, e.url, e.secret_sealed, due.previous_claim IS NOT NULL AS took_over`,
      [workspaceId, deliveryId],
    );
    const row = rows?.[0];
    if (!row) return null;
    if (row.took_over) {
      await this.dataSource.query(
        `INSERT INTO delivery_attempts (workspace_id, delivery_id, number, error) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [workspaceId, deliveryId, row.attempts - 1, LOST_ATTEMPT],
      );
    }
    return { number: row.attempts, type: row.type, body: row.body, url: row.url, secretSealed: row.secret_sealed, tookOver: row.took_over };
  }

  /**
   * Records an attempt and settles the delivery, only while this attempt's claim still holds it.
   * A Retry asked for while the attempt was out (next_attempt_at moved after the claim) keeps a
   * failed delivery due now instead of scheduling it. Returns the delivery's state and, when it is
   * still pending, how long until it is due; null when the claim was lost.
   */
  async settle(workspaceId: string, deliveryId: string, attempt: AttemptRecord): Promise<{ state: string; dueInMs: number } | null> {
    const [row] = await this.dataSource.query(
      `WITH recorded AS (
         INSERT INTO delivery_attempts (workspace_id, delivery_id, number, started_at, duration_ms, status_code, body_excerpt, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (workspace_id, delivery_id, number) DO UPDATE SET started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms,
           status_code = EXCLUDED.status_code, body_excerpt = EXCLUDED.body_excerpt, error = EXCLUDED.error),
       settled AS (
         UPDATE deliveries SET claimed_until = NULL,
           state = CASE WHEN $9 THEN 'succeeded'
                        WHEN next_attempt_at > claimed_until - interval '${CLAIM_SECONDS} seconds' THEN 'pending'
                        WHEN $10::bigint IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = CASE WHEN $9 THEN NULL
                        WHEN next_attempt_at > claimed_until - interval '${CLAIM_SECONDS} seconds' THEN next_attempt_at
                        WHEN $10::bigint IS NULL THEN NULL ELSE now() + $10::bigint * interval '1 millisecond' END
          WHERE workspace_id = $1 AND id = $2 AND attempts = $3 AND state = 'pending' AND claimed_until IS NOT NULL
         RETURNING state, next_attempt_at)
       SELECT state, GREATEST(0, ceil(EXTRACT(EPOCH FROM (next_attempt_at - now())) * 1000))::int AS due_in_ms FROM settled`,
      [
        workspaceId,
        deliveryId,
        attempt.number,
        attempt.startedAt,
        attempt.durationMs,
        attempt.status ?? null,
        attempt.bodyExcerpt ?? null,
        attempt.error ?? null,
        attempt.ok,
        attempt.nextDelayMs,
      ],
    );
    return row ? { state: row.state, dueInMs: row.due_in_ms ?? 0 } : null;
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

  /** Pending deliveries due for at least `graceMs` and not claimed: their job was lost or never queued. */
  async dueUnclaimed(graceMs: number, limit: number): Promise<Array<{ workspace_id: string; id: string; attempts: number }>> {
    return this.dataSource.query(
      `SELECT workspace_id, id, attempts FROM deliveries
        WHERE state = 'pending' AND next_attempt_at <= now() - $1::int * interval '1 millisecond'
          AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit],
    );
  }

  /** Retention: deletes deliveries (and their attempts) created before `before`, a batch at a time. */
  async deleteCreatedBefore(before: Date, batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count] = await this.dataSource.query(
        `DELETE FROM deliveries WHERE (workspace_id, id) IN (SELECT workspace_id, id FROM deliveries WHERE created_at < $1 LIMIT $2)`,
        [before, batch],
      );
      total += count;
      if (count < batch) return total;
    }
  }

  async get(workspaceId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const [row] = await this.dataSource.query(`SELECT ${DELIVERY_COLUMNS} FROM deliveries d WHERE d.workspace_id = $1 AND d.id = $2`, [workspaceId, deliveryId]);
    return row ?? null;
  }

  /** Stores a delivery outside the relay (Send a test), due now. */
  async insertOne(row: NewDelivery): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO deliveries (workspace_id, id, endpoint_id, outbox_id, type, body, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
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
