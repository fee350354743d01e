// The workspace's events counted for its home page and the chart page's first question
// (docs/console.md#home): what people did, so the service's own timeline kinds are left out, and
// expired rows are not counted, as a chart counts neither.
import { Inject, Injectable } from '@nestjs/common';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import { TIMELINE_KINDS } from '../domain/catalogue';
import type { Span } from '../domain/day-comparison';

export interface EventTally {
  name: string;
  count: number;
}

@Injectable()
export class EventsTallyRepository {
  /** Counting decides nothing: inside a read request the replica may serve it. */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /** The events of each span, [from, to): a partition-pruned range of the workspace's rows each. */
  async inSpans(workspaceId: string, today: Span, yesterday: Span): Promise<{ today: number; yesterday: number }> {
    const [row]: Array<{ today: number; yesterday: number }> = await this.reads.query(
      `SELECT (SELECT count(*) FROM events
                WHERE workspace_id = $1 AND occurred_at >= $2 AND occurred_at < $3 AND type <> ALL($6::text[])
                  AND (expires_at IS NULL OR expires_at > now()))::int AS today,
              (SELECT count(*) FROM events
                WHERE workspace_id = $1 AND occurred_at >= $4 AND occurred_at < $5 AND type <> ALL($6::text[])
                  AND (expires_at IS NULL OR expires_at > now()))::int AS yesterday`,
      [workspaceId, today.from, today.to, yesterday.from, yesterday.to, TIMELINE_KINDS],
    );
    return row;
  }

  /** The names done most often in the span, most first (ties by name), at most `first` of them. */
  mostFrequent(workspaceId: string, span: Span, first: number): Promise<EventTally[]> {
    return this.reads.query(
      `SELECT type AS name, count(*)::int AS count FROM events
        WHERE workspace_id = $1 AND occurred_at >= $2 AND occurred_at < $3 AND type <> ALL($4::text[])
          AND (expires_at IS NULL OR expires_at > now())
        GROUP BY type ORDER BY count(*) DESC, type LIMIT $5`,
      [workspaceId, span.from, span.to, TIMELINE_KINDS, first],
    );
  }
}
