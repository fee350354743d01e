// A chart from the rollups (docs/decisions.md "Charts from rollups"; what they hold: rollup.sql.ts).
// The rollups hold the folded rows of whole hours or days (counts, sums) and whole days, weeks or months
// (people); the statement adds what differs from the chart's rows, read from events by index, few rows:
//   + the rows not folded yet (received_at >= folded_to: the last minute or so, on the received_at BRIN),
//     inside from..to and not expired;
//   - the folded rows in the first and last buckets but outside from..to (a chart from mid-bucket);
//   - the folded rows that expired since the last fold (on the expiry index).
// So the answer is exact in the snapshot it reads: the mark, the rollups and events are read in one
// REPEATABLE READ transaction (ChartsRepository). A person counts in a bucket when their folded rows there,
// less those taken away, plus those added, are more than none.
import { firstTouchKeys } from '@app/people';
import { ChartQuestion } from './chart-rule';

import { LIVE, OF_CHART, ROW, RollupMark } from './rollup-read.sql';
import { EdgePlans, peopleRollupStatement } from './chart-rollup-people.statement';

const TAIL = `${ROW}, 1::bigint AS sign FROM events e WHERE ${OF_CHART} AND e.received_at >= $7::timestamptz
     AND e.occurred_at >= $3::timestamptz AND e.occurred_at <= $4::timestamptz AND ${LIVE}`;
/** Folded rows in `range` that expired since the last fold. */
const expired = (range: string) => `${ROW}, -1 FROM events e WHERE ${OF_CHART} AND ${range}
     AND e.expires_at > $8::timestamptz AND e.expires_at <= now() AND e.received_at < $7::timestamptz`;

/**
 * Counts and sums: the rollups cover the whole hours $5..$6 inside from..to (whole days $9..$10 of them
 * from day rows); the rows of the partial hours at either end are read from events.
 */
const COUNT_ADJUST = `adjust AS (
  ${TAIL}
  UNION ALL
  ${ROW}, 1 FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $3::timestamptz AND e.occurred_at < $5::timestamptz AND e.received_at < $7::timestamptz AND ${LIVE}
  UNION ALL
  ${ROW}, 1 FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $6::timestamptz AND e.occurred_at <= $4::timestamptz AND e.received_at < $7::timestamptz AND ${LIVE}
  UNION ALL
  ${expired('e.occurred_at >= $5::timestamptz AND e.occurred_at < $6::timestamptz')})`;

const HOUR = 3_600_000;
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR) * HOUR);
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR) * HOUR);
const floorDay = (at: Date) => new Date(Math.floor(at.getTime() / (24 * HOUR)) * 24 * HOUR);
const ceilDay = (at: Date) => new Date(Math.ceil(at.getTime() / (24 * HOUR)) * 24 * HOUR);

/** The whole hours inside from..to, and the whole days inside them (none for hour charts). */
export function rolledRange(question: ChartQuestion): { hours: [Date, Date]; days: [Date, Date] } {
  let [h0, h1] = [ceilHour(question.from), floorHour(question.to)];
  if (h0 >= h1) h0 = h1 = question.from;
  let [d0, d1] = [ceilDay(h0), floorDay(h1)];
  if (question.interval === 'hour' || d0 >= d1) d0 = d1 = h1;
  return { hours: [h0, h1], days: [d0, d1] };
}

/** Whether the rollups answer this chart: people are kept per day, week and month, not per hour. */
export function rollupsAnswer(question: ChartQuestion): boolean {
  return !(question.measure === 'people' && question.interval === 'hour');
}

/**
 * The chart's statement over the rollups and mark. interval and breakdown are names parseChartInput
 * checked against fixed lists. Rows: bucket, key (null unbroken; '' is (none)), value.
 */
export function rollupChartStatement(workspaceId: string, question: ChartQuestion, mark: RollupMark, plans: EdgePlans = {}): { sql: string; args: unknown[] } {
  if (question.measure === 'people') return peopleRollupStatement(workspaceId, question, mark, plans);
  const { interval, breakdown } = question;
  const { hours, days } = rolledRange(question);
  const args: unknown[] = [workspaceId, question.event, question.from.toISOString(), question.to.toISOString(), ...hours.map((d) => d.toISOString()), mark.folded_to, mark.expired_to];
  args.push(...days.map((d) => d.toISOString()));
  const dim = breakdown ?? 'all';
  const join = (personId: string) => (breakdown ? `JOIN ${firstTouchKeys(breakdown)} p ON p.workspace_id = $1 AND p.id = ${personId}` : '');
  const key = breakdown ? 'p.key' : "''";
  const bucketOf = (at: string) => `date_trunc('${interval}', ${at} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const answer = (value: string) => `SELECT g.bucket, ${breakdown ? 'g.key' : 'NULL::text'} AS key, ${value}::float8 AS value FROM (
      SELECT u.bucket, u.key, sum(u.n) AS n, coalesce(sum(u.v), 0) AS v FROM (SELECT * FROM rolled UNION ALL SELECT * FROM keyed) AS u GROUP BY 1, 2) AS g
     WHERE g.n > 0`;
  {
    const rollup = (grain: string, from: string, to: string) => `SELECT ${bucketOf('r.at')} AS bucket, r.key, r.events AS n, r.value AS v FROM events_rollup r
                  WHERE r.workspace_id = $1 AND r.type = $2 AND r.grain = '${grain}' AND r.dim = '${dim}' AND r.at >= ${from}::timestamptz AND r.at < ${to}::timestamptz`;
    return {
      sql: `WITH ${COUNT_ADJUST},
      keyed AS (SELECT ${bucketOf('a.occurred_at')} AS bucket, ${key} AS key, a.sign::bigint AS n, a.sign * a.value AS v FROM adjust a ${join('a.person_id')}),
      rolled AS (${rollup('day', '$9', '$10')} UNION ALL ${rollup('hour', '$5', '$9')} UNION ALL ${rollup('hour', '$10', '$6')})
      ${answer(question.measure === 'count' ? 'g.n' : 'g.v')}`,
      args,
    };
  }
}
