// Segments as owners and admins save them, their counts and their members (docs/graphql.md#segments).
// Every change of a workspace's segments raises its revision first, in the change's transaction: the row lock
// it takes puts one workspace's changes in a line, so the limit and the unique name are checked without a race.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { PersonCondition } from '@app/people';

export interface SegmentRow {
  workspace_id: string;
  id: string;
  name: string;
  definition: unknown;
  filling: boolean;
  announce_fill: boolean;
  fill_done: number;
  fill_total: number | null;
  fill_started_at: Date | null;
  filled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface SegmentMemberRow {
  person_id: string;
  entered_at: Date;
}

const COLUMNS =
  'workspace_id, id, name, definition, filling, announce_fill, fill_done, fill_total, fill_started_at, filled_at, ' +
  'created_at, updated_at';

/** A changed definition is filled again from the first person on (the members stay until the fill recomputes them). */
const REFILL = 'filling = true, fill_after = NULL, fill_done = 0, fill_total = NULL, fill_started_at = NULL';

@Injectable()
export class SegmentsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(READ_DATABASE) private readonly reads: ReadDatabase,
  ) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Raises the workspace's segment revision (the ingest's compiled segments are then stale). */
  async raiseRevision(m: EntityManager, workspaceId: string): Promise<void> {
    await m.query(
      `INSERT INTO segment_revisions (workspace_id, revision) VALUES ($1, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET revision = segment_revisions.revision + 1`,
      [workspaceId],
    );
  }

  /** How many segments the workspace has, and whether one other than `except` has this name. */
  async tally(
    m: EntityManager,
    workspaceId: string,
    name: string | null,
    except: string | null = null,
  ): Promise<{ segments: number; named: boolean }> {
    const [row] = await m.query(
      `SELECT count(*)::int AS segments,
              coalesce(bool_or(name = $2 AND id IS DISTINCT FROM $3), false) AS named
         FROM segments WHERE workspace_id = $1`,
      [workspaceId, name, except],
    );
    return row;
  }

  async insert(
    m: EntityManager,
    row: { workspaceId: string; id: string; name: string; definition: unknown; announceFill: boolean },
  ): Promise<SegmentRow> {
    const [inserted] = await m.query(
      `INSERT INTO segments (workspace_id, id, name, definition, announce_fill) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${COLUMNS}`,
      [row.workspaceId, row.id, row.name, JSON.stringify(row.definition), row.announceFill],
    );
    return inserted;
  }

  /** The name and the definition, each left as it is when absent; a new definition fills the segment again. */
  async update(
    m: EntityManager,
    workspaceId: string,
    id: string,
    changes: { name?: string; definition?: unknown },
  ): Promise<SegmentRow | null> {
    const refill = changes.definition !== undefined;
    const [rows]: [SegmentRow[], number] = await m.query(
      `UPDATE segments SET name = coalesce($3, name), definition = coalesce($4::jsonb, definition),
              updated_at = now()${refill ? `, ${REFILL}` : ''}
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id, changes.name ?? null, refill ? JSON.stringify(changes.definition) : null],
    );
    return rows[0] ?? null;
  }

  /**
   * The segment, then its members and counts: the delete waits for a write holding the segment (the membership
   * statement's FOR KEY SHARE), so the statements after it see every member that write added.
   */
  async delete(m: EntityManager, workspaceId: string, id: string): Promise<boolean> {
    const [, deleted]: [unknown[], number] = await m.query(`DELETE FROM segments WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ]);
    if (deleted === 0) return false;
    await m.query(`DELETE FROM segment_members WHERE workspace_id = $1 AND segment_id = $2`, [workspaceId, id]);
    await m.query(`DELETE FROM segment_counts WHERE workspace_id = $1 AND segment_id = $2`, [workspaceId, id]);
    return true;
  }

  /** Oldest first. */
  list(workspaceId: string): Promise<SegmentRow[]> {
    return this.reads.query(`SELECT ${COLUMNS} FROM segments WHERE workspace_id = $1 ORDER BY created_at, id`, [
      workspaceId,
    ]);
  }

  async find(workspaceId: string, id: string): Promise<SegmentRow | null> {
    const [row] = await this.reads.query(`SELECT ${COLUMNS} FROM segments WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ]);
    return row ?? null;
  }

  /** Each segment's count: the sum of its slots (a segment without slots counts 0). */
  counts(workspaceId: string, ids: readonly string[]): Promise<Array<{ segment_id: string; count: number }>> {
    return this.reads.query(
      `SELECT s.id AS segment_id, coalesce(sum(c.members), 0)::int AS count
         FROM segments s LEFT JOIN segment_counts c ON c.workspace_id = s.workspace_id AND c.segment_id = s.id
        WHERE s.workspace_id = $1 AND s.id = ANY($2::text[]) GROUP BY s.id`,
      [workspaceId, ids],
    );
  }

  /**
   * Members by person id, from after `after` on: a range of the primary key (workspace, segment, person), whatever
   * the table's statistics.
   */
  members(workspaceId: string, id: string, limit: number, after: string | null): Promise<SegmentMemberRow[]> {
    return this.reads.query(
      `SELECT person_id, entered_at FROM segment_members
        WHERE workspace_id = $2 AND segment_id = $1 AND person_id > $3
        ORDER BY workspace_id, segment_id, person_id LIMIT $4`,
      [id, workspaceId, after ?? '', limit],
    );
  }

  /** The segments (id and name) each of these people is in, by name. */
  ofPeople(
    workspaceId: string,
    personIds: readonly string[],
  ): Promise<Array<{ person_id: string; id: string; name: string }>> {
    return this.reads.query(
      `SELECT m.person_id, s.id, s.name FROM segment_members m
         JOIN segments s ON s.workspace_id = m.workspace_id AND s.id = m.segment_id
        WHERE m.workspace_id = $1 AND m.person_id = ANY($2::text[]) ORDER BY s.name, s.id`,
      [workspaceId, personIds],
    );
  }

  /** The people filter's condition "is a member of the segment", for the people query (PersonFilter.among). */
  memberCondition(workspaceId: string, id: string): PersonCondition {
    return {
      key: `segment:${id}`,
      sql: (bind) =>
        `id IN (SELECT person_id FROM segment_members WHERE segment_id = ${bind(id)} ` +
        `AND workspace_id = ${bind(workspaceId)})`,
    };
  }
}
