// Timeline pages for the admin API and the MCP tools: one statement for many people; and
// the console's live feed, by when rows were recorded.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import { personJoin } from '@app/people';
import type { TimelineRow } from './timeline.repository';

export type TimelinePageRow = TimelineRow & { at_micros: string };

/** One kind of row on one person's timeline, and how many of it. */
export interface KindCountRow {
  person_id: string;
  type: string;
  count: number;
}

export interface TimelinePageQuery {
  /** Rows per person (the page size plus one). */
  limit: number;
  /** Only these kinds, when given. */
  types?: string[];
  /** Rows older than this position. */
  after?: { atMicros: string; id: string };
}

/**
 * The statement of TimelineReadRepository.pages, apart so its plan can be tested (test/medium/timeline-read.spec.ts).
 */
export function timelinePagesStatement(
  workspaceId: string,
  personIds: readonly string[],
  query: TimelinePageQuery,
): { text: string; args: unknown[] } {
  const args: unknown[] = [workspaceId, personIds, query.limit];
  const where: string[] = [];
  if (query.types?.length) where.push(`AND e.type = ANY($${args.push(query.types)}::text[])`);
  if (query.after) {
    args.push(query.after.atMicros, query.after.id);
    const at = `timestamptz 'epoch' + $${args.length - 1}::bigint * interval '1 microsecond'`;
    // The bare bound on occurred_at is what leaves the later months' partitions out (the row comparison is not).
    where.push(`AND (e.occurred_at, e.id) < (${at}, $${args.length}) AND e.occurred_at <= ${at}`);
  }
  // One person (a person's page) is named as a value, so the planner weighs that person's own count of rows
  // (a busy person read from the key, in order, and not sorted); several go through a lateral join.
  const people = personIds.length === 1 ? `(VALUES (($2::text[])[1])) AS p(id)` : `unnest($2::text[]) AS p(id)`;
  const text = `SELECT t.*, (extract(epoch FROM t.occurred_at) * 1000000)::bigint::text AS at_micros
         FROM ${people}
         CROSS JOIN LATERAL (
           SELECT e.workspace_id, e.id, e.occurred_at, e.person_id, e.type, e.value, e.properties, e.detail, e.source,
             e.expires_at
             FROM events e
            WHERE e.workspace_id = $1 AND e.person_id = p.id ${where.join(' ')}
            ORDER BY e.occurred_at DESC, e.id DESC LIMIT $3) AS t`;
  return { text, args };
}

/** A row of the live feed with its person; read_micros is when the statement read (the database's clock). */
export interface LiveEventRow {
  read_micros: string;
  id: string;
  type: string;
  occurred_at: Date;
  received_at: Date;
  value: string | null;
  person_id: string;
  person_email: string | null;
  person_name: string | null;
}

export interface LiveEventsQuery {
  /** Rows recorded after this (microseconds since the epoch); null: in the last windowMs. */
  sinceMicros: string | null;
  windowMs: number;
  limit: number;
}

/**
 * The statement of TimelineReadRepository.recordedSince: a workspace's rows recorded since a time, newest
 * first, with their person; one row with only read_micros when none.
 */
export function recordedSinceStatement(workspaceId: string, query: LiveEventsQuery): { text: string; args: unknown[] } {
  // OFFSET 0 keeps the workspace out of the scan: events_received alone reads the last seconds of every
  // workspace, where the key's workspace prefix, ANDed in, would read every row the workspace ever had.
  const text = `SELECT (extract(epoch
    FROM now()) * 1000000)::bigint::text AS read_micros, r.*, p.email AS person_email, p.name AS person_name
         FROM (VALUES (1)) AS poll(one)
         LEFT JOIN LATERAL (
           SELECT e.id, e.type, e.occurred_at, e.received_at, e.value, e.person_id
             FROM (SELECT * FROM events
                    WHERE received_at > coalesce(timestamptz 'epoch' + $2::bigint * interval '1 microsecond',
                      now() - $3::bigint * interval '1 millisecond')
                   OFFSET 0) AS e
            WHERE e.workspace_id = $1 AND (e.expires_at IS NULL OR e.expires_at > now())
            ORDER BY e.received_at DESC, e.id DESC LIMIT $4) AS r ON true
         ${personJoin('p', '$1', 'r.person_id', 'LEFT JOIN')}
        ORDER BY r.received_at DESC, r.id DESC`;
  return { text, args: [workspaceId, query.sinceMicros, query.windowMs, query.limit] };
}

@Injectable()
export class TimelineReadRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(READ_DATABASE) private readonly reads: ReadDatabase,
  ) {}

  /**
   * Each person's newest rows, read backwards on the events key (workspace, person, occurred_at, id): a lateral read
   * per person, one statement.
   */
  pages(workspaceId: string, personIds: readonly string[], query: TimelinePageQuery): Promise<TimelinePageRow[]> {
    const { text, args } = timelinePagesStatement(workspaceId, personIds, query);
    return this.reads.query(text, args);
  }

  /** Each person's timeline by kind, the most frequent first, on the events key (workspace, person): one statement. */
  kindCounts(workspaceId: string, personIds: readonly string[]): Promise<KindCountRow[]> {
    return this.reads.query(
      `SELECT e.person_id, e.type, count(*)::int AS count
         FROM events e
        WHERE e.workspace_id = $1 AND e.person_id = ANY($2::text[])
        GROUP BY e.person_id, e.type
        ORDER BY count DESC, e.type`,
      [workspaceId, personIds],
    );
  }

  /**
   * The live feed's rows and when they were read: rows past their expiry but not yet swept are left out.
   * On the primary: its cursor is the database's clock, which on a lagging replica runs ahead of the rows it holds.
   */
  async recordedSince(
    workspaceId: string,
    query: LiveEventsQuery,
  ): Promise<{ readMicros: string; rows: LiveEventRow[] }> {
    const { text, args } = recordedSinceStatement(workspaceId, query);
    const found: LiveEventRow[] = await this.dataSource.query(text, args);
    return { readMicros: found[0].read_micros, rows: found.filter((row) => row.id !== null) };
  }
}
