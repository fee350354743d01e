// The workspace's people counted for its home page (docs/console.md#home): by stage, the engaged, and the
// new ones today and yesterday, in one pass over the workspace's people (merged-away records left out).
import { Inject, Injectable } from '@nestjs/common';
import { READ_DATABASE, ReadDatabase } from '@app/platform';

export interface PeopleTally {
  /** The people of each stage; stage null for those with none yet. */
  stages: Array<{ stage: string | null; people: number }>;
  engaged: number;
  /** The people first seen today so far, and yesterday up to the same time. */
  newPeople: { today: number; yesterday: number };
}

interface Span {
  from: Date;
  to: Date;
}

@Injectable()
export class PeopleTallyRepository {
  /** Counting decides nothing: inside a read request the replica may serve it. */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /** A person is new in a span ([from, to)) when their created_at (their earliest event) falls in it. */
  async tally(workspaceId: string, today: Span, yesterday: Span): Promise<PeopleTally> {
    const rows: Array<{ stage: string | null; people: number; engaged: number; today: number; yesterday: number }> =
      await this.reads.query(
        `SELECT stage, count(*)::int AS people, count(*) FILTER (WHERE engaged_at IS NOT NULL)::int AS engaged,
                count(*) FILTER (WHERE created_at >= $2 AND created_at < $3)::int AS today,
                count(*) FILTER (WHERE created_at >= $4 AND created_at < $5)::int AS yesterday
           FROM people
          WHERE workspace_id = $1 AND merged_into IS NULL
          GROUP BY stage`,
        [workspaceId, today.from, today.to, yesterday.from, yesterday.to],
      );
    const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((n, row) => n + pick(row), 0);
    return {
      stages: rows.map((r) => ({ stage: r.stage, people: r.people })),
      engaged: sum((r) => r.engaged),
      newPeople: { today: sum((r) => r.today), yesterday: sum((r) => r.yesterday) },
    };
  }
}
