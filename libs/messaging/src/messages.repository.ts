// The only code that writes messages (the email door's receipts are edge's DoorReceiptsRepository).
// A message's timeline row is written by the events lib's TimelineRepository, in the same transaction.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { MessageStatus } from '@app/wire';
import { TimelineRepository } from '@app/events';
import { MergeParticipant, PeopleRepository, personColumnMover, personJoin, PersonRow } from '@app/people';
import type { MessageCursor } from './domain/message-query';

export type SendState = 'stored' | 'queued' | 'sending' | 'sent' | 'failed' | 'received';

export interface MessageWrite {
  workspaceId: string;
  id: string;
  personId: string;
  direction: 'in' | 'out';
  at: Date;
  subject: string;
  text: string;
  html: string | null;
  templateId: string | null;
  sendState: SendState;
  address: string;
  /** The broadcast it is one email of (docs/graphql.md#broadcasts); its worker sends it, not the email queue. */
  broadcastId?: string | null;
}

/** A message with its person, as pages and threads show it. */
export interface MessageRead {
  id: string;
  direction: 'in' | 'out';
  at: Date;
  at_key: string;
  subject: string;
  text: string;
  provider_id: string | null;
  status: MessageStatus | null;
  address: string | null;
  person_id: string;
  person_name: string | null;
  person_email: string | null;
}

export interface OutgoingRow {
  workspace_id: string;
  id: string;
  person_id: string;
  subject: string;
  text: string;
  html: string | null;
  address: string;
  send_state: SendState;
  provider_id: string | null;
}

export interface PageFilter {
  personId?: string;
  direction?: 'in' | 'out';
  since?: Date;
  until?: Date;
  cursor?: MessageCursor;
  limit: number;
}

const READ = `SELECT m.id, m.direction, m.at, to_char(m.at AT TIME ZONE 'UTC',
  'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key,
       m.subject, m.text, m.provider_id, m.status, m.address, m.person_id, p.name AS person_name,
         p.email AS person_email
  FROM messages m ${personJoin('p', 'm.workspace_id', 'm.person_id')}`;
const OUTGOING = `workspace_id, id, person_id, subject, text, html, address, send_state, provider_id`;

@Injectable()
export class MessagesRepository implements MergeParticipant {
  readonly name = 'messages';
  /** A merge's part here: the absorbed people's messages become the survivor's. */
  readonly movePeople = personColumnMover('UPDATE messages');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    /**
     * The pages and one message: inside a read request the replica may serve them (docs/decisions.md#read-replica).
     */
    @Inject(READ_DATABASE) private readonly reads: ReadDatabase,
    private readonly people: PeopleRepository,
    private readonly timeline: TimelineRepository,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The person, locked against merges and posts meanwhile (see PeopleRepository.lockPerson). */
  lockPerson(m: EntityManager, workspaceId: string, personId: string): Promise<PersonRow | null> {
    return this.people.lockPerson(m, workspaceId, personId);
  }

  /** The message and its row on the person's timeline (the same id). */
  insert(m: EntityManager, w: MessageWrite): Promise<void> {
    return this.insertMany(m, [w]);
  }

  /** Messages and their timeline rows, one statement each (a broadcast's turns store theirs together). */
  async insertMany(m: EntityManager, ws: readonly MessageWrite[]): Promise<void> {
    if (!ws.length) return;
    const rows = ws.map((w) => ({ ...w, at: w.at.toISOString(), broadcastId: w.broadcastId ?? null }));
    await m.query(
      `INSERT INTO messages (workspace_id, id, person_id, direction, at, subject, text, html, template_id, send_state,
        address, broadcast_id)
       SELECT "workspaceId", id, "personId", direction, at, subject, text, html, "templateId", "sendState", address,
              "broadcastId"
         FROM jsonb_to_recordset($1::jsonb) AS w("workspaceId" text, id text, "personId" text, direction text,
              at timestamptz, subject text, text text, html text, "templateId" text, "sendState" text, address text,
              "broadcastId" text)`,
      [JSON.stringify(rows)],
    );
    await this.timeline.insertRows(
      m,
      rows.map((w) => ({
        workspace_id: w.workspaceId,
        id: w.id,
        occurred_at: w.at,
        person_id: w.personId,
        type: w.direction === 'out' ? 'email_sent' : 'email_received',
        value: null,
        properties: null,
        detail: w.subject.slice(0, 500) || null,
        source: null,
        expires_at: null,
      })),
    );
  }

  /** A reply makes the person engaged (written by the people lib). */
  markEngaged(m: EntityManager, workspaceId: string, personId: string, at: Date): Promise<void> {
    return this.people.markEngaged(m, workspaceId, personId, at);
  }

  async page(workspaceId: string, f: PageFilter): Promise<MessageRead[]> {
    const where = ['m.workspace_id = $1'];
    const args: unknown[] = [workspaceId];
    if (f.personId) where.push(`m.person_id = $${args.push(f.personId)}`);
    if (f.direction) where.push(`m.direction = $${args.push(f.direction)}`);
    if (f.since) where.push(`m.at >= $${args.push(f.since.toISOString())}`);
    if (f.until) where.push(`m.at <= $${args.push(f.until.toISOString())}`);
    if (f.cursor) where.push(`(m.at, m.id) < ($${args.push(f.cursor.at)}::timestamptz, $${args.push(f.cursor.id)})`);
    args.push(f.limit);
    return this.reads.query(
      `${READ} WHERE ${where.join(' AND ')} ORDER BY m.at DESC, m.id DESC LIMIT $${args.length}`,
      args,
    );
  }

  /** One message of the workspace, or null. */
  async one(workspaceId: string, id: string): Promise<MessageRead | null> {
    const [row] = await this.reads.query(`${READ} WHERE m.workspace_id = $1 AND m.id = $2`, [workspaceId, id]);
    return row ?? null;
  }

  /** The person's latest messages, newest first. */
  thread(workspaceId: string, personId: string, limit: number): Promise<MessageRead[]> {
    return this.reads.query(
      `${READ} WHERE m.workspace_id = $1 AND m.person_id = $2 ORDER BY m.at DESC, m.id DESC LIMIT $3`,
      [workspaceId, personId, limit],
    );
  }

  async sendState(workspaceId: string, id: string): Promise<Pick<OutgoingRow, 'send_state' | 'provider_id'> | null> {
    const [row] = await this.dataSource.query(
      `SELECT send_state, provider_id FROM messages WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return row ?? null;
  }

  /** Claims a queued message for sending; null when it is not queued (already claimed, sent or failed). */
  async claim(workspaceId: string, id: string): Promise<OutgoingRow | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE messages SET send_state = 'sending', sending_since = now()
        WHERE workspace_id = $1 AND id = $2 AND send_state = 'queued' RETURNING ${OUTGOING}`,
      [workspaceId, id],
    );
    return rows[0] ?? null;
  }

  markSent(workspaceId: string, id: string, providerId: string): Promise<void> {
    return this.markSentMany(this.dataSource.manager, workspaceId, [{ id, providerId }]);
  }

  /** Sending messages the provider took, with its ids, in one statement. */
  async markSentMany(
    m: EntityManager,
    workspaceId: string,
    sent: ReadonlyArray<{ id: string; providerId: string }>,
  ): Promise<void> {
    await m.query(
      `UPDATE messages m SET send_state = 'sent', provider_id = s.provider_id, send_error = NULL
         FROM unnest($2::text[], $3::text[]) AS s(id, provider_id)
        WHERE m.workspace_id = $1 AND m.id = s.id AND m.send_state = 'sending'`,
      [workspaceId, sent.map((s) => s.id), sent.map((s) => s.providerId)],
    );
  }

  /** Gives a claimed message back to the queue after an attempt that will be retried. */
  async release(workspaceId: string, id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE messages SET send_state = 'queued', sending_since = NULL WHERE workspace_id = $1 AND id = $2 AND ` +
        `send_state = 'sending'`,
      [workspaceId, id],
    );
  }

  async markFailed(workspaceId: string, id: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE messages SET send_state = 'failed', send_error = $3 WHERE workspace_id = $1 AND id = $2 AND ` +
        `send_state = 'sending'`,
      [workspaceId, id, error.slice(0, 1000)],
    );
  }

  /** Queued messages older than `before`: their job was lost (Redis down at enqueue) or is late. */
  waitingSince(before: Date, limit: number): Promise<Array<{ workspace_id: string; id: string }>> {
    return this.dataSource.query(
      `SELECT workspace_id, id FROM messages WHERE send_state = 'queued' AND created_at < $1 ` +
        `AND broadcast_id IS NULL ORDER BY created_at LIMIT $2`,
      [before.toISOString(), limit],
    );
  }

  /**
   * A claim older than `before` means the worker stopped mid-send. Whether the email left is unknown,
   * and sending again could send it twice, so it is recorded as failed.
   */
  async failInterrupted(before: Date, error: string): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE messages SET send_state = 'failed', send_error = $2 WHERE send_state = 'sending' ` +
        `AND sending_since < $1 AND broadcast_id IS NULL`,
      [before.toISOString(), error],
    );
    return count;
  }

  /** Locks the outgoing message the provider knows by this id. */
  async byProviderIdForUpdate(
    m: EntityManager,
    providerId: string,
  ): Promise<{
    workspace_id: string;
    id: string;
    person_id: string;
    address: string | null;
    status: MessageStatus | null;
  } | null> {
    const [row] = await m.query(
      `SELECT workspace_id, id, person_id, address, status FROM messages WHERE provider_id = $1 AND direction = 'out' ` +
        `ORDER BY at DESC LIMIT 1 FOR UPDATE`,
      [providerId],
    );
    return row ?? null;
  }

  async setStatus(m: EntityManager, workspaceId: string, id: string, status: MessageStatus, at: Date): Promise<void> {
    await m.query(`UPDATE messages SET status = $3, status_at = $4 WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
      status,
      at.toISOString(),
    ]);
  }

  /** The outgoing message a reply names: by the provider's id, its Message-ID, or our own id. */
  async answered(
    ids: string[],
  ): Promise<{ workspace_id: string; id: string; person_id: string; address: string | null } | null> {
    if (ids.length === 0) return null;
    const bracketed = ids.map((id) => `<${id}>`);
    const local = ids.map((id) => id.split('@')[0]);
    const [row] = await this.dataSource.query(
      `SELECT workspace_id, id, person_id, address FROM messages
        WHERE direction = 'out' AND (provider_id = ANY($1::text[]) OR provider_id = ANY($2::text[])
          OR provider_id = ANY($3::text[]) OR id = ANY($3::text[]))
        ORDER BY at DESC LIMIT 1`,
      [ids, bracketed, local],
    );
    return row ?? null;
  }

  /** The most recent email sent to this address, in any workspace. */
  async latestSentTo(address: string): Promise<{ workspace_id: string; id: string; person_id: string } | null> {
    const [row] = await this.dataSource.query(
      `SELECT workspace_id, id, person_id FROM messages WHERE address = $1 AND direction = 'out' ORDER BY at ` +
        `DESC LIMIT 1`,
      [address],
    );
    return row ?? null;
  }
}
