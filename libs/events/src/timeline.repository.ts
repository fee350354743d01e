// The timeline (events), event names, idempotency keys and the heartbeat, outside the ingest transaction
// (whose claims, reads and single write are ingest/ingest.repository.ts).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ActionStatus } from '@app/wire';
import { type MergeParticipant, personColumnMover, personTouchSql } from '@app/people';
import { TIMELINE_COLUMNS } from './timeline-columns';

export interface TimelineRow {
  workspace_id: string;
  id: string;
  occurred_at: string;
  person_id: string;
  type: string;
  value: number | null;
  properties: Record<string, unknown> | null;
  detail: string | null;
  source: Record<string, unknown> | null;
  expires_at: string | null;
}

export { TIMELINE_COLUMNS };
/** TIMELINE_COLUMNS but the workspace, with their types, as jsonb_to_recordset reads them from a leanRecord. */
export const TIMELINE_LEAN_RECORD = `id text, occurred_at timestamptz, person_id text,
    type text, value numeric, properties jsonb, detail text, source jsonb, expires_at timestamptz`;
/** TIMELINE_COLUMNS with their types, as jsonb_to_recordset reads them. */
export const TIMELINE_RECORD = `workspace_id text, ${TIMELINE_LEAN_RECORD}`;

/** A workspace's events that expired: how many, and whose (none listed when it has no segments). */
export interface ExpiredEvents {
  workspace_id: string;
  deleted: number;
  people: string[] | null;
}

export interface StoredAnswer {
  key: string;
  status: ActionStatus;
  record_id: string | null;
}

export interface HeartbeatCount {
  workspace_id: string;
  minute: string;
  action: string;
  answer: string;
  origin: string;
  count: number;
}

@Injectable()
export class TimelineRepository implements MergeParticipant {
  readonly name = 'events';
  /** A merge's part here: the absorbed people's timeline rows become the survivor's. */
  readonly movePeople = personColumnMover('UPDATE events');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes timeline rows the service makes itself outside the ingest (a message's email_sent row), each with its
   * person's first-touch key.
   */
  async insertRows(m: EntityManager, rows: TimelineRow[]): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO events (${TIMELINE_COLUMNS}, touch) SELECT x.*, ` +
        `${personTouchSql('x.workspace_id', 'x.person_id')} FROM jsonb_to_recordset($1::jsonb) AS x(${TIMELINE_RECORD})`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Events past their expires_at, in the caller's transaction: only the timeline rows go (docs/rest.md#events).
   * Answers, by workspace, how many went and, where the workspace has segments, whose they were.
   */
  expire(m: EntityManager, now: Date): Promise<ExpiredEvents[]> {
    return m.query(
      `WITH gone AS (
         DELETE FROM events WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING workspace_id, person_id)
       SELECT workspace_id, count(*)::int AS deleted,
              CASE WHEN EXISTS (SELECT 1 FROM segments s WHERE s.workspace_id = gone.workspace_id)
                   THEN array_agg(DISTINCT person_id) FILTER (WHERE person_id IS NOT NULL) ELSE '{}' END AS people
         FROM gone GROUP BY workspace_id`,
      [now.toISOString()],
    );
  }

  /** The people of the events expire would delete now, in workspaces with segments: it locks them first. */
  expiring(m: EntityManager, now: Date): Promise<Array<{ workspace_id: string; people: string[] }>> {
    return m.query(
      `SELECT workspace_id, array_agg(DISTINCT person_id) AS people FROM events e
        WHERE expires_at IS NOT NULL AND expires_at <= $1 AND person_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM segments s WHERE s.workspace_id = e.workspace_id)
        GROUP BY workspace_id`,
      [now.toISOString()],
    );
  }

  /** expire in a transaction of its own, without recomputing segments (the worker's sweep is ExpirySweep). */
  async deleteExpired(now: Date): Promise<number> {
    const expired = await this.dataSource.transaction((m) => this.expire(m, now));
    return expired.reduce((sum, row) => sum + row.deleted, 0);
  }

  async deleteOldIdempotencyKeys(before: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE created_at < $1`,
      [before.toISOString()],
    );
    return result[1];
  }

  async addHeartbeat(counts: HeartbeatCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO heartbeat (workspace_id, minute, action, answer, origin, count)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(workspace_id text, minute timestamptz, action text, answer text, origin text, count int)
       ON CONFLICT (workspace_id, minute, action, answer, origin) DO UPDATE
         SET count = heartbeat.count + EXCLUDED.count`,
      [JSON.stringify(counts)],
    );
  }

  async deleteOldHeartbeat(before: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(`DELETE FROM heartbeat WHERE minute < $1`, [
      before.toISOString(),
    ]);
    return result[1];
  }

  heartbeat(workspaceId: string, since: Date): Promise<HeartbeatCount[]> {
    return this.dataSource.query(
      `SELECT workspace_id, minute, action, answer, origin, count FROM heartbeat
        WHERE workspace_id = $1 AND minute >= $2 ORDER BY minute DESC, action, answer, origin LIMIT 10000`,
      [workspaceId, since.toISOString()],
    );
  }

  timeline(workspaceId: string, personId: string, limit: number): Promise<Array<TimelineRow & { received_at: Date }>> {
    return this.dataSource.query(
      `SELECT * FROM events WHERE workspace_id = $1 AND person_id = $2 ORDER BY occurred_at DESC, id DESC LIMIT $3`,
      [workspaceId, personId, limit],
    );
  }

  seenNames(workspaceId: string): Promise<Array<{ name: string; first_seen_at: Date }>> {
    return this.dataSource.query(`SELECT name, first_seen_at FROM event_names WHERE workspace_id = $1 ORDER BY name`, [
      workspaceId,
    ]);
  }

  /** A note an owner or admin wrote on a person's timeline: a row of kind note and nothing else. */
  async insertNote(row: {
    workspaceId: string;
    id: string;
    personId: string;
    text: string;
    author: string;
  }): Promise<TimelineRow> {
    const [inserted] = await this.dataSource.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, detail, properties, touch)
       VALUES ($1, $2, now(), $3, 'note', $4, $5, ${personTouchSql('$1', '$3')})
         RETURNING workspace_id, id, occurred_at, person_id, type, value, properties, detail, source, expires_at`,
      [row.workspaceId, row.id, row.personId, row.text, { author: row.author }],
    );
    return inserted;
  }
}
