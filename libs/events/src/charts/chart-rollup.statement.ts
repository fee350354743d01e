// A count or sum chart from the rollups (docs/decisions.md#charts-from-rollups; what they hold:
// rollup.sql.ts). The rollups hold the folded rows of whole hours and days; the statement adds what
// differs from the chart's rows, read from events by index, few rows:
//   + the rows not folded yet (received_at >= folded_to: the last minute or so, on the received_at BRIN),
//     inside from..to and not expired;
//   + every live row of the partial hours at either end of from..to;
//   - the folded rows of the whole hours that expired since the last fold (on the expiry index).
// So the answer is exact in the snapshot it reads: the mark, the rollups and events are read in one
// REPEATABLE READ transaction (ChartsRepository). Broken down, a key's fields come from event_touches
// (key 0, no first touch, is '', the series (none)); keys that share a source add up in chartSeries.
import { ChartBreakdown, ChartQuestion } from './chart-rule';

/** The mark as the database spells it (text keeps its microseconds and '-infinity'). */
export interface RollupMark {
  folded_to: string;
  expired_to: string;
}

export const ROLLUP_MARK_SQL = `SELECT folded_to::text AS folded_to, expired_to::text AS expired_to FROM events_rollup_mark`;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const floorTo = (at: Date, unit: number) => new Date(Math.floor(at.getTime() / unit) * unit);
const ceilTo = (at: Date, unit: number) => new Date(Math.ceil(at.getTime() / unit) * unit);

/** The whole hours inside from..to, and the whole days inside them (none for hour charts). */
export function rolledRange(question: ChartQuestion): { hours: [Date, Date]; days: [Date, Date] } {
  let [h0, h1] = [ceilTo(question.from, HOUR), floorTo(question.to, HOUR)];
  if (h0 >= h1) h0 = h1 = question.from;
  let [d0, d1] = [ceilTo(h0, DAY), floorTo(h1, DAY)];
  if (question.interval === 'hour' || d0 >= d1) d0 = d1 = h1;
  return { hours: [h0, h1], days: [d0, d1] };
}

/**
 * Broken down, the series key of a row's first-touch key: its field in event_touches, the workspace's
 * keys read once into one object and looked up per row (no join for the planner to get wrong: with
 * event_touches never analyzed it chose a nested loop, 180 rows scanned per rollup row). Key 0, NULL
 * and keys not named are '', the series (none). breakdown is a name parseChartInput checked.
 */
export function touchNames(breakdown: ChartBreakdown): { cte: string; key: (touch: string) => string; join: string } {
  return {
    cte:
      `names AS (SELECT coalesce(jsonb_object_agg(k.touch::text, k.${breakdown}), '{}') AS names FROM ` +
      `event_touches k WHERE k.workspace_id = $1)`,
    key: (touch) => `coalesce(n.names ->> coalesce(${touch}, 0)::text, '')`,
    join: 'CROSS JOIN names n',
  };
}

// $1 workspace, $2 type, $3 from, $4 to, $5..$6 whole hours, $7 folded_to, $8 expired_to, $9..$10 whole days.
const OF_CHART = `e.workspace_id = $1 AND e.type = $2`;
const LIVE = `(e.expires_at IS NULL OR e.expires_at > now())`;
const ROW = `SELECT e.occurred_at, e.touch, e.value`;
const ADJUST = `adjust AS (
  ${ROW}, 1 AS sign FROM events e WHERE ${OF_CHART} AND e.received_at >= $7::timestamptz
     AND e.occurred_at >= $3::timestamptz AND e.occurred_at <= $4::timestamptz AND ${LIVE}
  UNION ALL
  ${ROW}, 1 FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $3::timestamptz AND e.occurred_at < $5::timestamptz
    AND e.received_at < $7::timestamptz AND ${LIVE}
  UNION ALL
  ${ROW}, 1 FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $6::timestamptz AND e.occurred_at <= $4::timestamptz
    AND e.received_at < $7::timestamptz AND ${LIVE}
  UNION ALL
  ${ROW}, -1 FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $5::timestamptz AND e.occurred_at < $6::timestamptz
     AND e.expires_at > $8::timestamptz AND e.expires_at <= now() AND e.received_at < $7::timestamptz)`;

/**
 * The chart's statement over the rollups and mark. interval and breakdown are names parseChartInput
 * checked against fixed lists. Rows: bucket, key (null unbroken; '' is (none)), value.
 */
export function rollupChartStatement(
  workspaceId: string,
  question: ChartQuestion,
  mark: RollupMark,
): { sql: string; args: unknown[] } {
  const { interval, breakdown } = question;
  const { hours, days } = rolledRange(question);
  const args: unknown[] = [
    workspaceId,
    question.event,
    question.from.toISOString(),
    question.to.toISOString(),
    ...hours.map((d) => d.toISOString()),
  ];
  args.push(mark.folded_to, mark.expired_to, ...days.map((d) => d.toISOString()));
  const bucketOf = (at: string) => `date_trunc('${interval}', ${at} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const rollup = (
    grain: number,
    from: string,
    to: string,
  ) => `SELECT ${bucketOf('r.at')} AS bucket, r.touch, r.events AS n, r.value AS v FROM events_rollup r
      WHERE r.workspace_id = $1 AND r.type = $2 AND r.grain = ${grain} AND r.at >= ${from}::timestamptz
        AND r.at < ${to}::timestamptz AND r.keyed = ${breakdown ? 'true' : 'false'}`;
  const value = question.measure === 'count' ? 'sum(u.n)' : 'coalesce(sum(u.v), 0)';
  const touch = breakdown ? touchNames(breakdown) : undefined;
  const key = touch ? touch.key('u.touch') : 'NULL::text';
  const names = touch?.join ?? '';
  const namesCte = touch ? `${touch.cte},` : '';
  return {
    sql: `WITH ${namesCte} ${ADJUST},
      u AS (SELECT ${bucketOf('a.occurred_at')} AS bucket, coalesce(a.touch, 0) AS touch, a.sign::bigint AS n,
        a.sign * a.value AS v FROM adjust a
            UNION ALL ${rollup(24, '$9', '$10')} UNION ALL ${rollup(1, '$5', '$9')} UNION ALL ${rollup(1, '$10', '$6')})
      SELECT u.bucket, ${key} AS key, ${value}::float8 AS value FROM u ${names} GROUP BY 1, 2 HAVING sum(u.n) > 0`,
    args,
  };
}
