// The one statement of a chart (docs/graphql.md#activity-and-charts; docs/decisions.md#charts-over-a-million-events).
// Up to MAX_CHART_BRANCHES buckets, each bucket is a branch of the statement over its own time range,
// joined by UNION ALL: the planner estimates every branch from its own range, Parallel Append spreads
// the branches over parallel workers, no row needs bucket arithmetic, and a bucket's distinct people are
// counted bucket by bucket. Broken down, a row counts under the first-touch key it carries, named as
// the rollups name it (touchNames: event_touches read once into one object), outside the branches. Past that
// many buckets, one branch groups the whole range by bucket; expression statistics on the buckets
// (migration 1765000000000) let the planner aggregate it in parallel.
import { bucketEnd, ChartQuestion } from './chart-rule';
import { touchNames } from './chart-rollup.statement';

/** Past this many buckets, one branch: planning costs about 0.2 ms a branch. */
export const MAX_CHART_BRANCHES = 100;

export interface ChartBranch {
  /** The bucket's start when the branch holds exactly one bucket; else buckets come from date_trunc. */
  bucket?: Date;
  /** Rows with lo <= occurred_at < hi (and occurred_at <= to). */
  lo: Date;
  hi: Date;
}

/** Whole buckets only, so that no bucket's rows are split between branches. */
export function chartBranches(question: ChartQuestion): ChartBranch[] {
  const { buckets, interval, from } = question;
  if (buckets.length > MAX_CHART_BRANCHES) return [{ lo: from, hi: bucketEnd(buckets[buckets.length - 1], interval) }];
  return buckets.map((bucket) => ({ bucket, lo: bucket > from ? bucket : from, hi: bucketEnd(bucket, interval) }));
}

// "C" compares ids bytewise: the same distinct ids, sorted faster than by the database's collation.
const MEASURE_SQL = {
  count: 'count(*)',
  sum_value: 'coalesce(sum(e.value), 0)',
  people: 'count(DISTINCT e.person_id COLLATE "C")',
} as const;

/**
 * The statement of a chart: values per UTC bucket (and first-touch key). Rows past their expires_at but
 * not yet swept are left out, as if already deleted (an expired event leaves the timeline: docs/rest.md#events).
 */
export function chartStatement(workspaceId: string, question: ChartQuestion): { sql: string; args: unknown[] } {
  const args: unknown[] = [workspaceId, question.event, question.to.toISOString()];
  const arg = (value: Date) => `$${args.push(value.toISOString())}::timestamptz`;
  const branches = chartBranches(question).map((branch) => ({
    bucket: branch.bucket && arg(branch.bucket),
    where: `e.workspace_id = $1 AND e.type = $2 AND e.occurred_at >= ${arg(branch.lo)} AND e.occurred_at < ${arg(branch.hi)}
        AND e.occurred_at <= $3::timestamptz AND (e.expires_at IS NULL OR e.expires_at > now())`,
  }));
  const [first] = branches;
  if (!first.bucket) return { sql: rangeSql(question, first.where), args };
  if (!question.breakdown)
    return { sql: branches.map((b) => bucketSql(question, b.where, b.bucket!)).join('\nUNION ALL\n'), args };
  return {
    sql: brokenDownSql(
      question,
      branches.map((b) => bucketRowsSql(question, b.where, b.bucket!)).join('\nUNION ALL\n'),
    ),
    args,
  };
}

/** One bucket, not broken down: every row is in it; empty, no row. */
function bucketSql(question: ChartQuestion, where: string, bucket: string): string {
  return (
    `SELECT ${bucket} AS bucket, NULL::text AS key, ${MEASURE_SQL[question.measure]}::float8 AS value FROM ` +
    `events e WHERE ${where} HAVING count(*) > 0`
  );
}

/** One bucket's rows to break down, per key: its distinct people, or its count and sum. */
function bucketRowsSql(question: ChartQuestion, where: string, bucket: string): string {
  const of = `FROM events e WHERE ${where} GROUP BY 2`;
  if (question.measure === 'people')
    return (
      `SELECT ${bucket} AS bucket, coalesce(e.touch, 0) AS touch, e.person_id, NULL::bigint AS n, NULL::numeric ` +
      `AS v ${of}, 3`
    );
  return (
    `SELECT ${bucket} AS bucket, coalesce(e.touch, 0) AS touch, NULL::text AS person_id, count(*) AS n, ` +
    `sum(e.value) AS v ${of}`
  );
}

const BROKEN_DOWN_VALUE = {
  count: 'sum(d.n)',
  sum_value: 'coalesce(sum(d.v), 0)',
  people: 'count(DISTINCT d.person_id COLLATE "C")',
} as const;

/** The buckets' rows per key, added up by the key's name (keys that share a source are one series). */
function brokenDownSql(question: ChartQuestion, rows: string): string {
  const names = touchNames(question.breakdown!);
  return `WITH ${names.cte} SELECT d.bucket, ${names.key('d.touch')} AS key,
    ${BROKEN_DOWN_VALUE[question.measure]}::float8 AS value
    FROM (${rows}) AS d ${names.join} GROUP BY 1, 2`;
}

/**
 * Many buckets: rows grouped by their bucket in UTC wall time, made a timestamptz again once per group
 * (date_trunc with a zone argument costs about half as much again per row). The date_trunc expression
 * must stay as written: the expression statistics of migration 1765000000000 match it. interval and
 * breakdown are names parseChartInput checked against fixed lists.
 */
function rangeSql(question: ChartQuestion, where: string): string {
  const names = question.breakdown ? touchNames(question.breakdown) : undefined;
  return `${names ? `WITH ${names.cte}` : ''} SELECT g.bucket AT TIME ZONE 'UTC' AS bucket, g.key, g.value FROM (
      SELECT date_trunc('${question.interval}', e.occurred_at AT TIME ZONE 'UTC') AS bucket,
        ${names ? names.key('e.touch') : 'NULL::text'} AS key, ${MEASURE_SQL[question.measure]}::float8 AS value
        FROM events e ${names?.join ?? ''} WHERE ${where} GROUP BY 1, 2) AS g`;
}
