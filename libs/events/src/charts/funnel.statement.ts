// The one statement of a funnel (docs/graphql.md#funnels-and-retention; docs/decisions.md#funnels-and-retention).
// Aggregation by person, step by step: s1 holds each person's first step 1 inside from..to, and each later
// step's CTE the earliest row of its type at or after the previous step's time (after it when the type is
// the previous step's too, so one row is not two steps), within withinDays of step 1 when given. The earliest
// row is the one that leaves the most room for the steps after it, so no ordered path is missed. Every step
// reads its rows from events_chart (workspace_id, type, occurred_at) INCLUDE (person_id, expires_at) by range
// and joins them to the previous step's people by hash.
import { funnelEnd, FunnelQuestion } from './funnel-rule';

/** A row still on the timeline: one past its expires_at but not swept yet counts as deleted (docs/rest.md#events). */
export const LIVE_ROW = '(e.expires_at IS NULL OR e.expires_at > now())';

/** People who are members of the segment now ($n its id). */
export function segmentFilter(param: string): string {
  return `EXISTS (SELECT 1 FROM segment_members sm WHERE sm.workspace_id = e.workspace_id AND sm.segment_id = ${param}
    AND sm.person_id = e.person_id)`;
}

export function funnelStatement(workspaceId: string, question: FunnelQuestion): { sql: string; args: unknown[] } {
  const args: unknown[] = [workspaceId, question.from.toISOString(), question.to.toISOString()];
  const arg = (value: unknown) => `$${args.push(value)}`;
  const end = funnelEnd(question);
  const segment = question.segment ? ` AND ${segmentFilter(arg(question.segment))}` : '';
  const ctes = [
    `s1 AS (SELECT e.person_id, min(e.occurred_at) AS first, min(e.occurred_at) AS at FROM events e
      WHERE e.workspace_id = $1 AND e.type = ${arg(question.steps[0].event)} AND e.occurred_at >= $2::timestamptz
        AND e.occurred_at < $3::timestamptz AND ${LIVE_ROW}${segment}
      GROUP BY e.person_id)`,
  ];
  const within =
    question.withinDays === undefined
      ? ''
      : ` AND e.occurred_at <= s.first + ${arg(question.withinDays)}::int * interval '24 hours'` +
        ` AND e.occurred_at <= ${arg(end!.toISOString())}::timestamptz`;
  question.steps.slice(1).forEach((step, i) => {
    const after = step.event === question.steps[i].event ? '>' : '>=';
    ctes.push(`s${i + 2} AS (SELECT s.person_id, s.first, min(e.occurred_at) AS at FROM s${i + 1} s
      JOIN events e ON e.person_id = s.person_id AND e.occurred_at ${after} s.at
      WHERE e.workspace_id = $1 AND e.type = ${arg(step.event)} AND e.occurred_at >= $2::timestamptz${within}
        AND ${LIVE_ROW}
      GROUP BY s.person_id, s.first)`);
  });
  const counts = question.steps.map((_, i) => `(SELECT count(*) FROM s${i + 1})::int AS s${i + 1}`);
  return { sql: `WITH ${ctes.join(',\n')}\nSELECT ${counts.join(', ')}`, args };
}
