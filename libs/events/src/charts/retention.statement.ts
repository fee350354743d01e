// The one statement of a retention question (docs/graphql.md#funnels-and-retention;
// docs/decisions.md#funnels-and-retention). A person's cohort is the period of their first start event ever:
// each person's earliest start row inside the periods, kept when they have no live start row before the
// first period. Then, per cohort and later period, the distinct people of the cohort with a back row in it.
// Both read events_chart (workspace_id, type, occurred_at) INCLUDE (person_id, expires_at) by range; the
// periods are date_trunc's buckets in UTC, as chart-rule.ts's bucketStart draws them (weeks from Monday).
import { LIVE_ROW, segmentFilter } from './funnel.statement';
import type { RetentionQuestion } from './retention-rule';

export interface RetentionRow {
  cohort: Date;
  /** null: the cohort's size; else the period whose back people are counted. */
  at: Date | null;
  people: number;
}

export function retentionStatement(workspaceId: string, question: RetentionQuestion): { sql: string; args: unknown[] } {
  const args: unknown[] = [
    workspaceId,
    question.start.event,
    question.back.event,
    question.periods[0].toISOString(),
    question.end.toISOString(),
  ];
  const segment = question.segment ? ` AND ${segmentFilter(`$${args.push(question.segment)}`)}` : '';
  // interval is a name parseRetentionInput checked against a fixed list.
  const period = (at: string) => `date_trunc('${question.interval}', ${at} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const sql = `WITH firsts AS (
      SELECT e.person_id, min(e.occurred_at) AS at FROM events e
       WHERE e.workspace_id = $1 AND e.type = $2 AND e.occurred_at >= $4::timestamptz
         AND e.occurred_at < $5::timestamptz AND ${LIVE_ROW}${segment}
       GROUP BY e.person_id),
    cohorts AS (
      SELECT f.person_id, ${period('f.at')} AS cohort FROM firsts f
       WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.workspace_id = $1 AND e.type = $2
         AND e.occurred_at < $4::timestamptz AND e.person_id = f.person_id AND ${LIVE_ROW}))
    SELECT c.cohort, NULL::timestamptz AS at, count(*)::int AS people FROM cohorts c GROUP BY 1
    UNION ALL
    SELECT c.cohort, ${period('e.occurred_at')} AS at, count(DISTINCT c.person_id COLLATE "C")::int AS people
      FROM cohorts c JOIN events e ON e.person_id = c.person_id
     WHERE e.workspace_id = $1 AND e.type = $3 AND e.occurred_at >= $4::timestamptz AND e.occurred_at < $5::timestamptz
       AND ${LIVE_ROW} AND ${period('e.occurred_at')} > c.cohort
     GROUP BY 1, 2`;
  return { sql, args };
}
