// The only code that queries door_receipts: which deliveries an inbound door has already answered
// (replay protection), and what it answered, for the door's log (docs/rest.md#third-party-doors).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface ReceiptAnswer {
  /** ok answers: recorded or ignored; refusals: their code. */
  answer: string;
  httpStatus: number;
}

export interface ReceiptRow {
  door: string;
  webhook_id: string;
  type: string | null;
  answer: string | null;
  http_status: number | null;
  received_at: Date;
}

@Injectable()
export class DoorReceiptsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inside the caller's transaction: false when this delivery id was already taken (a replay). */
  async take(m: EntityManager, door: string, webhookId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO door_receipts (door, webhook_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
      [door, webhookId],
    );
    return rows.length === 1;
  }

  /** The answer given to this delivery before, or null when it is new. */
  async answered(door: string, webhookId: string): Promise<ReceiptAnswer | null> {
    const [row] = await this.dataSource.query(
      `SELECT answer, http_status FROM door_receipts WHERE door = $1 AND webhook_id = $2`,
      [door, webhookId],
    );
    return row ? { answer: row.answer ?? 'recorded', httpStatus: row.http_status ?? 200 } : null;
  }

  /**
   * Keeps the first answer when two deliveries of one id race (both wrote the same, by idempotency
   * key); a refusal is replaced by the answer its redelivery got.
   */
  async record(door: string, webhookId: string, type: string | null, answer: ReceiptAnswer): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO door_receipts (door, webhook_id, type, answer, http_status) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (door, webhook_id) DO UPDATE
         SET type = EXCLUDED.type, answer = EXCLUDED.answer, http_status = EXCLUDED.http_status, received_at = now()
       WHERE door_receipts.http_status >= 400`,
      [door, webhookId, type, answer.answer, answer.httpStatus],
    );
  }

  /** The newest `limit` receipts of each door, newest first. */
  async latestOf(doors: readonly string[], limit: number): Promise<ReceiptRow[]> {
    if (doors.length === 0) return [];
    return this.dataSource.query(
      `SELECT r.door, r.webhook_id, r.type, r.answer, r.http_status, r.received_at
         FROM unnest($1::text[]) AS d(door)
         CROSS JOIN LATERAL (
           SELECT * FROM door_receipts WHERE door = d.door ORDER BY received_at DESC, webhook_id DESC LIMIT $2
         ) r`,
      [doors, limit],
    );
  }

  async deleteOf(m: EntityManager, door: string): Promise<void> {
    await m.query(`DELETE FROM door_receipts WHERE door = $1`, [door]);
  }

  /** Retention: receipts of the doors named (or of every door but those, with except) received before `before`. */
  async deleteBefore(before: Date, doors: { only: string[] } | { except: string[] }): Promise<number> {
    const [clause, list] =
      'only' in doors ? ['door = ANY($2::text[])', doors.only] : ['NOT (door = ANY($2::text[]))', doors.except];
    let total = 0;
    for (;;) {
      const [, count]: [unknown, number] = await this.dataSource.query(
        `DELETE FROM door_receipts WHERE (door, webhook_id) IN (
           SELECT door, webhook_id FROM door_receipts WHERE received_at < $1 AND ${clause} LIMIT 5000)`,
        [before.toISOString(), list],
      );
      total += count;
      if (count < 5000) return total;
    }
  }
}
