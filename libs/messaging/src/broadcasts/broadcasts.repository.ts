// The only code that reads and writes broadcasts (docs/graphql.md#broadcasts); their recipients are
// BroadcastRecipientsRepository's.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { OutgoingRow } from '../messages.repository';
import type { BroadcastState } from './domain/broadcast';

export interface BroadcastRow {
  workspace_id: string;
  id: string;
  name: string;
  list_id: string | null;
  segment_id: string | null;
  template_id: string | null;
  subject: string | null;
  body: string | null;
  state: BroadcastState;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  audience: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface BroadcastWrite {
  name: string;
  listId: string | null;
  segmentId: string | null;
  templateId: string | null;
  subject: string | null;
  body: string | null;
}

const COLUMNS = `workspace_id, id, name, list_id, segment_id, template_id, subject, body, state, scheduled_at,
  started_at, finished_at, audience, created_at, updated_at`;

@Injectable()
export class BroadcastsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(workspaceId: string, id: string, w: BroadcastWrite): Promise<BroadcastRow> {
    const [row] = await this.dataSource.query(
      `INSERT INTO broadcasts (workspace_id, id, name, list_id, segment_id, template_id, subject, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [workspaceId, id, w.name, w.listId, w.segmentId, w.templateId, w.subject, w.body],
    );
    return row;
  }

  /** The content of a draft or scheduled broadcast, in the caller's transaction (it holds the row's lock). */
  async update(m: EntityManager, workspaceId: string, id: string, w: BroadcastWrite): Promise<BroadcastRow> {
    const [rows] = await m.query(
      `UPDATE broadcasts SET name = $3, list_id = $4, segment_id = $5, template_id = $6, subject = $7, body = $8,
          updated_at = now()
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id, w.name, w.listId, w.segmentId, w.templateId, w.subject, w.body],
    );
    return rows[0];
  }

  /** Locks the broadcast for a move (the moves of one broadcast happen one after the other). */
  async lock(m: EntityManager, workspaceId: string, id: string): Promise<BroadcastRow | null> {
    const [row] = await m.query(`SELECT ${COLUMNS} FROM broadcasts WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [
      workspaceId,
      id,
    ]);
    return row ?? null;
  }

  async move(
    m: EntityManager,
    workspaceId: string,
    id: string,
    change: {
      state: BroadcastState;
      scheduledAt?: Date | null;
      audience?: number;
      started?: boolean;
      /** The subject and body every email fills in, fixed when sending starts (a template's, or the overrides). */
      content?: { subject: string; body: string };
    },
  ): Promise<BroadcastRow> {
    const [rows] = await m.query(
      `UPDATE broadcasts SET state = $3, updated_at = now(),
          subject = coalesce($8, subject), body = coalesce($9, body),
          scheduled_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE scheduled_at END,
          audience = coalesce($6::int, audience),
          started_at = CASE WHEN $7::boolean THEN now() ELSE started_at END,
          finished_at = CASE WHEN $3 IN ('sent', 'cancelled') THEN now() ELSE finished_at END
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        workspaceId,
        id,
        change.state,
        change.scheduledAt !== undefined,
        change.scheduledAt?.toISOString() ?? null,
        change.audience ?? null,
        change.started ?? false,
        change.content?.subject ?? null,
        change.content?.body ?? null,
      ],
    );
    return rows[0];
  }

  async find(workspaceId: string, id: string): Promise<BroadcastRow | null> {
    const [row] = await this.dataSource.query(`SELECT ${COLUMNS} FROM broadcasts WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ]);
    return row ?? null;
  }

  /** Newest first (ids are ULIDs: in the order made), from before the id `before` on. */
  page(workspaceId: string, limit: number, before: string | null): Promise<BroadcastRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM broadcasts WHERE workspace_id = $1 AND ($2::text IS NULL OR id < $2)
        ORDER BY id DESC LIMIT $3`,
      [workspaceId, before, limit],
    );
  }

  /** Scheduled broadcasts whose time has come, any workspace, locked for their start (others skip them). */
  dueScheduled(m: EntityManager, limit: number): Promise<Array<{ workspace_id: string; id: string }>> {
    return m.query(
      `SELECT workspace_id, id FROM broadcasts WHERE state = 'scheduled' AND scheduled_at <= now()
        ORDER BY scheduled_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  /** Sending broadcasts with no recipient left to send become sent; answers how many did. */
  async finishDone(): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE broadcasts b SET state = 'sent', finished_at = now(), updated_at = now()
        WHERE b.state = 'sending' AND NOT EXISTS (
          SELECT 1 FROM broadcast_recipients r WHERE r.workspace_id = b.workspace_id AND r.broadcast_id = b.id
             AND r.state IN ('queued', 'sending'))`,
    );
    return count;
  }

  /** A broadcast's message as it was stored when its send began: what a resend after a crash sends again. */
  async outgoing(
    workspaceId: string,
    id: string,
  ): Promise<Pick<OutgoingRow, 'id' | 'person_id' | 'subject' | 'text' | 'html' | 'address' | 'provider_id'> | null> {
    const [row] = await this.dataSource.query(
      `SELECT workspace_id, id, person_id, subject, text, html, address, send_state, provider_id FROM messages
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return row ?? null;
  }

  /** Each broadcast's emails opened (or clicked) and clicked, by the statuses the email door recorded. */
  broadcastEngagement(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<Array<{ broadcast_id: string; opened: number; clicked: number }>> {
    return this.dataSource.query(
      `SELECT broadcast_id, count(*) FILTER (WHERE status IN ('opened', 'clicked'))::int AS opened,
              count(*) FILTER (WHERE status = 'clicked')::int AS clicked
         FROM messages WHERE workspace_id = $1 AND broadcast_id = ANY($2::text[]) GROUP BY broadcast_id`,
      [workspaceId, ids],
    );
  }
}
