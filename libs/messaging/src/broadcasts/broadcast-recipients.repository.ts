// The only code that writes a broadcast's recipients: the audience fixed in the transaction that starts the send,
// rows claimed FOR UPDATE SKIP LOCKED by one worker (claimed_by) until the lease runs out, and every later write made
// only while that claim holds, so a worker that lost its claim to a takeover writes nothing
// (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { lockPeopleSql, workspacePeopleSql } from '@app/people';

export const RECIPIENT_STATES = ['queued', 'sending', 'sent', 'failed', 'skipped', 'cancelled'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

export interface ClaimedRecipient {
  workspace_id: string;
  broadcast_id: string;
  person_id: string;
  state: 'queued' | 'sending';
  attempts: number;
  message_id: string | null;
}

export interface RecipientRow {
  person_id: string;
  state: RecipientState;
  reason: string | null;
  attempts: number;
  message_id: string | null;
  provider_id: string | null;
  sent_at: Date | null;
  updated_at: Date;
}

export interface RecipientKey {
  workspaceId: string;
  broadcastId: string;
  personId: string;
}

/** People per INSERT of the audience: the send's transaction holds them all, a chunk a statement. */
const AUDIENCE_CHUNK = 10_000;

const KEY = `r.workspace_id = $1 AND r.broadcast_id = $2 AND r.person_id = $3`;
const MINE = `${KEY} AND r.claimed_by = $4`;
const RELEASED = `claimed_by = NULL, claimed_at = NULL, updated_at = now()`;
/** A batch's rows: the workspace $1, the broadcast $2, the claim $3, the people in `s`. */
const MANY = `r.workspace_id = $1 AND r.broadcast_id = $2 AND r.claimed_by = $3 AND r.person_id = s.person_id`;

/** One broadcast's rows claimed by one worker. */
export interface RecipientBatchKey {
  workspaceId: string;
  broadcastId: string;
  worker: string;
}

interface Send {
  personId: string;
  messageId: string;
}

export interface Sent {
  personId: string;
  messageId: string;
  providerId: string;
}

const batchArgs = (b: RecipientBatchKey) => [b.workspaceId, b.broadcastId, b.worker];

@Injectable()
export class BroadcastRecipientsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Fixes the audience: one row a person the condition (SQL on `p.id`, written by the lib that owns what it reads)
   * holds for now, a chunk at a time in id order, in the caller's transaction. Answers how many rows it made.
   */
  async fixAudience(
    m: EntityManager,
    workspaceId: string,
    broadcastId: string,
    condition: (bind: (value: unknown) => string) => string,
  ): Promise<number> {
    let after = '';
    let total = 0;
    for (;;) {
      const args: unknown[] = [workspaceId, broadcastId, after];
      const where = condition((value) => `$${args.push(value)}`);
      const rows: Array<{ person_id: string }> = await m.query(
        `WITH chosen AS (SELECT p.id FROM (${workspacePeopleSql('$1')}) p WHERE p.id > $3 AND ${where}
                          ORDER BY p.id LIMIT ${AUDIENCE_CHUNK})
         INSERT INTO broadcast_recipients (workspace_id, broadcast_id, person_id)
         SELECT $1, $2, id FROM chosen ON CONFLICT DO NOTHING RETURNING person_id`,
        args,
      );
      total += rows.length;
      // The turns find each row by its key: with statistics of the rows just written, not of an empty table.
      if (rows.length < AUDIENCE_CHUNK) return total > AUDIENCE_CHUNK ? this.analyze(m, total) : total;
      after = rows.reduce((max, r) => (r.person_id > max ? r.person_id : max), after);
    }
  }

  private async analyze(m: EntityManager, total: number): Promise<number> {
    await m.query('ANALYZE broadcast_recipients');
    return total;
  }

  /**
   * Claims up to `limit` due recipients of sending broadcasts for `worker`: those nobody holds, and those whose
   * claim is older than the lease (a killed worker's). A row found 'sending' is a takeover of an interrupted send.
   * Each sending broadcast is read by its own index range (a paused one costs nothing), the oldest started first.
   */
  async claim(worker: string, leaseMs: number, limit: number): Promise<ClaimedRecipient[]> {
    const [rows]: [ClaimedRecipient[], number] = await this.dataSource.query(
      `WITH due AS (
         SELECT r.workspace_id, r.broadcast_id, r.person_id
           FROM broadcasts b CROSS JOIN LATERAL (
             SELECT r.workspace_id, r.broadcast_id, r.person_id FROM broadcast_recipients r
              WHERE r.workspace_id = b.workspace_id AND r.broadcast_id = b.id AND r.state IN ('queued', 'sending')
                AND r.next_attempt_at <= now()
                AND (r.claimed_at IS NULL OR r.claimed_at < now() - make_interval(secs => $2::float8 / 1000))
              ORDER BY r.next_attempt_at LIMIT $3
              FOR UPDATE OF r SKIP LOCKED) r
          WHERE b.state = 'sending' ORDER BY b.started_at, b.id LIMIT $3)
       UPDATE broadcast_recipients r SET claimed_by = $1, claimed_at = now()
         FROM due WHERE r.workspace_id = due.workspace_id AND r.broadcast_id = due.broadcast_id
          AND r.person_id = due.person_id
       RETURNING r.workspace_id, r.broadcast_id, r.person_id, r.state, r.attempts, r.message_id`,
      [worker, leaseMs, limit],
    );
    return rows;
  }

  /**
   * Marks the claimed row 'sending' (the claim's time renewed) while its broadcast still sends, in the caller's
   * transaction, which commits before the provider is called. False: the claim or the broadcast's sending is gone.
   */
  async markSending(m: EntityManager, k: RecipientKey, worker: string, messageId: string): Promise<boolean> {
    const [, count]: [unknown, number] = await m.query(
      `UPDATE broadcast_recipients r SET state = 'sending', attempts = r.attempts + 1, message_id = $5,
          claimed_at = now(), updated_at = now()
         FROM broadcasts b
        WHERE ${MINE} AND r.state IN ('queued', 'sending') AND b.workspace_id = r.workspace_id
          AND b.id = r.broadcast_id AND b.state = 'sending'`,
      [k.workspaceId, k.broadcastId, k.personId, worker, messageId],
    );
    return count > 0;
  }

  /**
   * markSending for many rows of one broadcast in one statement, in the caller's transaction; answers the people
   * whose rows it marked (the others' claim or the broadcast's sending is gone).
   */
  async markSendingMany(m: EntityManager, batch: RecipientBatchKey, sends: readonly Send[]): Promise<Set<string>> {
    const [rows]: [Array<{ person_id: string }>, number] = await m.query(
      `UPDATE broadcast_recipients r SET state = 'sending', attempts = r.attempts + 1, message_id = s.message_id,
          claimed_at = now(), updated_at = now()
         FROM broadcasts b, unnest($4::text[], $5::text[]) AS s(person_id, message_id)
        WHERE ${MANY} AND r.state IN ('queued', 'sending') AND b.workspace_id = r.workspace_id
          AND b.id = r.broadcast_id AND b.state = 'sending'
       RETURNING r.person_id`,
      [...batchArgs(batch), sends.map((s) => s.personId), sends.map((s) => s.messageId)],
    );
    return new Set(rows.map((r) => r.person_id));
  }

  /** Sending rows the provider took, settled 'sent' with its ids, in the caller's transaction. */
  async markSentMany(m: EntityManager, batch: RecipientBatchKey, sent: readonly Sent[]): Promise<void> {
    await m.query(
      `UPDATE broadcast_recipients r SET state = 'sent', provider_id = s.provider_id, reason = NULL, sent_at = now(),
          ${RELEASED}
         FROM unnest($4::text[], $5::text[]) AS s(person_id, provider_id)
        WHERE ${MANY} AND r.state = 'sending'`,
      [...batchArgs(batch), sent.map((s) => s.personId), sent.map((s) => s.providerId)],
    );
  }

  /** Queued rows whose person may not get it now, skipped with each one's reason. */
  async markSkippedMany(batch: RecipientBatchKey, skips: ReadonlyArray<{ personId: string; reason: string }>) {
    if (!skips.length) return;
    await this.dataSource.query(
      `UPDATE broadcast_recipients r SET state = 'skipped', reason = s.reason, ${RELEASED}
         FROM unnest($4::text[], $5::text[]) AS s(person_id, reason)
        WHERE ${MANY} AND r.state = 'queued'`,
      [...batchArgs(batch), skips.map((s) => s.personId), skips.map((s) => s.reason)],
    );
  }

  /** Gives claims back untouched. */
  async releaseMany(batch: RecipientBatchKey, personIds: readonly string[]): Promise<void> {
    if (!personIds.length) return;
    await this.dataSource.query(
      `UPDATE broadcast_recipients r SET ${RELEASED} FROM unnest($4::text[]) AS s(person_id) WHERE ${MANY}`,
      [...batchArgs(batch), personIds],
    );
  }

  /** The people of a batch, locked as a one-to-one send locks its person; answers those found, merged or not. */
  lockPeople(
    m: EntityManager,
    workspaceId: string,
    personIds: readonly string[],
  ): Promise<Array<{ id: string; email: string | null; merged_into: string | null }>> {
    return m.query(lockPeopleSql('$1', '$2::text[]', 'id, email, merged_into'), [workspaceId, personIds]);
  }

  async markSent(k: RecipientKey, worker: string, providerId: string): Promise<boolean> {
    return this.settle(k, worker, 'sending', `state = 'sent', provider_id = $5, reason = NULL, sent_at = now()`, [
      providerId,
    ]);
  }

  /** A permanent failure, the last transient one, or an email that could not be made for this person. */
  async markFailed(k: RecipientKey, worker: string, error: string): Promise<boolean> {
    return this.settle(k, worker, ['queued', 'sending'], `state = 'failed', reason = $5`, [error.slice(0, 1000)]);
  }

  /** A transient failure: queued again after `delayMs`, its error kept until the next attempt settles. */
  async retryLater(k: RecipientKey, worker: string, error: string, delayMs: number): Promise<boolean> {
    return this.settle(
      k,
      worker,
      'sending',
      `state = 'queued', reason = $5, next_attempt_at = now() + make_interval(secs => $6::float8 / 1000)`,
      [error.slice(0, 1000), delayMs],
    );
  }

  /** Gives a claim back untouched (the broadcast was paused or cancelled meanwhile). */
  async release(k: RecipientKey, worker: string): Promise<void> {
    await this.dataSource.query(`UPDATE broadcast_recipients r SET ${RELEASED} WHERE ${MINE}`, [
      k.workspaceId,
      k.broadcastId,
      k.personId,
      worker,
    ]);
  }

  private async settle(
    k: RecipientKey,
    worker: string,
    from: RecipientState | RecipientState[],
    set: string,
    extra: unknown[],
  ) {
    const states = (Array.isArray(from) ? from : [from]).map((s) => `'${s}'`).join(', ');
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE broadcast_recipients r SET ${set}, ${RELEASED} WHERE ${MINE} AND r.state IN (${states})`,
      [k.workspaceId, k.broadcastId, k.personId, worker, ...extra],
    );
    return count > 0;
  }

  /**
   * A cancel's part: the recipients not reached yet are cancelled, and so is a send interrupted longer ago than
   * the lease (no worker takes over a cancelled broadcast's rows); a send under way settles as it ends.
   */
  async cancelOpen(m: EntityManager, workspaceId: string, broadcastId: string, leaseMs: number): Promise<void> {
    await m.query(
      `UPDATE broadcast_recipients SET state = 'cancelled', ${RELEASED},
          reason = CASE WHEN state = 'sending' THEN 'The worker stopped while sending; whether the email left is ' ||
            'unknown.' ELSE reason END
        WHERE workspace_id = $1 AND broadcast_id = $2 AND (state = 'queued' OR (state = 'sending'
          AND claimed_at < now() - make_interval(secs => $3::float8 / 1000)))`,
      [workspaceId, broadcastId, leaseMs],
    );
  }

  /** Each broadcast's recipients by state, and the skipped ones by reason. */
  tallies(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<Array<{ broadcast_id: string; state: RecipientState; reason: string | null; n: number }>> {
    return this.dataSource.query(
      `SELECT broadcast_id, state, CASE WHEN state = 'skipped' THEN reason END AS reason, count(*)::int AS n
         FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = ANY($2::text[])
        GROUP BY 1, 2, 3`,
      [workspaceId, ids],
    );
  }

  /** A page of the broadcast's recipients by person id, after `after`, of one state when given. */
  page(
    workspaceId: string,
    broadcastId: string,
    f: { state?: RecipientState | null; after: string | null; limit: number },
  ): Promise<RecipientRow[]> {
    return this.dataSource.query(
      `SELECT person_id, state, reason, attempts, message_id, provider_id, sent_at, updated_at
         FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = $2
          AND ($3::text IS NULL OR state = $3) AND ($4::text IS NULL OR person_id > $4)
        ORDER BY person_id LIMIT $5`,
      [workspaceId, broadcastId, f.state ?? null, f.after, f.limit],
    );
  }
}
