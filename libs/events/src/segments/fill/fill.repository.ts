// The SQL of a segment's background work (docs/graphql.md#segments): its fill's progress in the segment's own
// columns (the row is the fill's state, so a killed worker's fill goes on in the next), the wait for the
// writers that began before the fill, and the people whose event left or entered a day window.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** A filling segment as its fill reads it, under its row lock. */
export interface FillingSegment {
  workspace_id: string;
  id: string;
  announce_fill: boolean;
  fill_after: string | null;
  /** Null until the fill's first chunk: the fill (re)starts. */
  fill_started_at: Date | null;
  updated_at: Date;
}

/** A segment whose definition the window sweep reads, with where its last sweep ended. */
export interface SweptSegment {
  workspace_id: string;
  id: string;
  definition: unknown;
  /** Where the last sweep ended; else when the segment was filled, else made. */
  swept_from: Date;
}

@Injectable()
export class FillRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The oldest filling segment no transaction holds now (another worker's chunk): id and updated_at. */
  async nextFilling(): Promise<FillingSegment | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${FILLING} FROM segments WHERE filling ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    return row ?? null;
  }

  /** Locks a segment for a chunk of its fill; null once it no longer fills (filled, or deleted). */
  async lockFilling(m: EntityManager, id: string): Promise<FillingSegment | null> {
    const [row] = await m.query(`SELECT ${FILLING} FROM segments WHERE id = $1 AND filling FOR UPDATE`, [id]);
    return row ?? null;
  }

  /**
   * A chunk's progress: `last` is the last person id it went over (null when none), `total` is set on the
   * fill's first chunk. A chunk shorter than the chunk size (`done`) ends the fill.
   */
  async advance(
    m: EntityManager,
    id: string,
    progress: { last: string | null; people: number; total: number | null; done: boolean; now: Date },
  ): Promise<void> {
    await m.query(
      `UPDATE segments SET fill_after = coalesce($2, fill_after), fill_done = fill_done + $3,
              fill_total = coalesce($4, fill_total), fill_started_at = coalesce(fill_started_at, $5),
              filling = NOT $6, filled_at = CASE WHEN $6 THEN $5 ELSE filled_at END
        WHERE id = $1`,
      [id, progress.last, progress.people, progress.total, progress.now.toISOString(), progress.done],
    );
  }

  /** The database's time now: a fill's first chunk waits for this database's transactions begun before it. */
  async writersMark(): Promise<string> {
    const [row] = await this.dataSource.query(`SELECT clock_timestamp()::text AS mark`);
    return row.mark;
  }

  /**
   * Whether every transaction of this database begun before the mark that has written or holds a snapshot (is
   * in a statement that may have read the segments before the new one) has ended. An idle transaction that has
   * done neither reads the segments afresh in its next statement. Other databases of the server are not
   * waited for, and sessions of other roles, whose times pg_stat_activity hides, neither.
   */
  async writersEnded(mark: string): Promise<boolean> {
    const [row] = await this.dataSource.query(
      `SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
          AND pid <> pg_backend_pid() AND xact_start < $1::timestamptz
          AND (backend_xid IS NOT NULL OR backend_xmin IS NOT NULL)) AS ended`,
      [mark],
    );
    return row.ended;
  }

  /** Every segment whose definition names a day window (the caller reads the definition). */
  windowed(): Promise<SweptSegment[]> {
    return this.dataSource.query(
      `SELECT workspace_id, id, definition, coalesce(swept_to, filled_at, created_at) AS swept_from FROM segments
        WHERE definition::text LIKE '%withinDays%' ORDER BY created_at, id`,
    );
  }

  /** Locks a segment for its sweep, unless another worker sweeps or fills it now; answers where it starts. */
  async lockSweep(m: EntityManager, id: string): Promise<Date | null> {
    const [row] = await m.query(
      `SELECT coalesce(swept_to, filled_at, created_at) AS swept_from FROM segments WHERE id = $1
        FOR UPDATE SKIP LOCKED`,
      [id],
    );
    return row?.swept_from ?? null;
  }

  async sweptTo(m: EntityManager, id: string, to: Date): Promise<void> {
    await m.query(`UPDATE segments SET swept_to = $2 WHERE id = $1`, [id, to.toISOString()]);
  }

  /** The people with an event of this type that occurred in [from, to): their count in its window changed. */
  async peopleWithEventsIn(
    m: EntityManager,
    workspaceId: string,
    type: string,
    from: Date,
    to: Date,
  ): Promise<string[]> {
    if (from >= to) return [];
    const rows: Array<{ person_id: string }> = await m.query(
      `SELECT DISTINCT person_id FROM events WHERE workspace_id = $1 AND type = $2 AND occurred_at >= $3
          AND occurred_at < $4 AND person_id IS NOT NULL`,
      [workspaceId, type, from.toISOString(), to.toISOString()],
    );
    return rows.map((row) => row.person_id);
  }
}

const FILLING = 'workspace_id, id, announce_fill, fill_after, fill_started_at, updated_at';
