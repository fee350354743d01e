// Timeline pages for the admin API and the MCP tools (issue 11): one statement for many people.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { TimelineRow } from './timeline.repository';

export type TimelinePageRow = TimelineRow & { at_micros: string };

export interface TimelinePageQuery {
  /** Rows per person (the page size plus one). */
  limit: number;
  /** Only these kinds, when given. */
  types?: string[];
  /** Rows older than this position. */
  after?: { atMicros: string; id: string };
}

/** The statement of TimelineReadRepository.pages, apart so its plan can be tested (test/medium/timeline-read.spec.ts). */
export function timelinePagesStatement(workspaceId: string, personIds: readonly string[], query: TimelinePageQuery): { text: string; args: unknown[] } {
  const args: unknown[] = [workspaceId, personIds, query.limit];
  const where: string[] = [];
  if (query.types?.length) where.push(`AND e.type = ANY($${args.push(query.types)}::text[])`);
  if (query.after) {
    args.push(query.after.atMicros, query.after.id);
    where.push(`AND (e.occurred_at, e.id) < (timestamptz 'epoch' + $${args.length - 1}::bigint * interval '1 microsecond', $${args.length})`);
  }
  const text = `SELECT t.*, (extract(epoch FROM t.occurred_at) * 1000000)::bigint::text AS at_micros
         FROM unnest($2::text[]) AS p(id)
         CROSS JOIN LATERAL (
           SELECT e.workspace_id, e.id, e.occurred_at, e.person_id, e.type, e.value, e.properties, e.detail, e.source, e.expires_at
             FROM events e
            WHERE e.workspace_id = $1 AND e.person_id = p.id ${where.join(' ')}
            ORDER BY e.occurred_at DESC, e.id DESC LIMIT $3) AS t`;
  return { text, args };
}

@Injectable()
export class TimelineReadRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Each person's newest rows, read backwards on the events key (workspace, person, occurred_at, id): a lateral read per person, one statement. */
  pages(workspaceId: string, personIds: readonly string[], query: TimelinePageQuery): Promise<TimelinePageRow[]> {
    const { text, args } = timelinePagesStatement(workspaceId, personIds, query);
    return this.dataSource.query(text, args);
  }
}
