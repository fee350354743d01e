// The one statement of a chart (decisions.md section 12; docs/decisions.md "Charts over a million events").
// Up to MAX_CHART_BRANCHES buckets, each bucket is a branch of the statement over its own time range,
// joined by UNION ALL: the planner estimates every branch from its own range, Parallel Append spreads
// the branches over parallel workers, no row needs bucket arithmetic, and a bucket's distinct people are
// counted bucket by bucket. Broken down, the branches' rows are joined to their people once, outside
// the branches (so each process hashes the workspace's people once, not once per bucket). Past that
// many buckets, one branch groups the whole range by bucket; expression statistics on the buckets
// (migration 1765000000000) let the planner aggregate it in parallel.
import { firstTouchKeys } from '@app/people';
import { bucketEnd, ChartQuestion } from './chart-rule';

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
 * not yet swept are left out, as if already deleted (interface.md events rule 5).
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
  if (!question.breakdown) return { sql: branches.map((b) => bucketSql(question, b.where, b.bucket!)).join('\nUNION ALL\n'), args };
  return { sql: brokenDownSql(question, branches.map((b) => bucketRowsSql(question, b.where, b.bucket!)).join('\nUNION ALL\n')), args };
}

/** One bucket, not broken down: every row is in it; empty, no row. */
function bucketSql(question: ChartQuestion, where: string, bucket: string): string {
  return `SELECT ${bucket} AS bucket, NULL::text AS key, ${MEASURE_SQL[question.measure]}::float8 AS value FROM events e WHERE ${where} HAVING count(*) > 0`;
}

/** One bucket's rows to break down: its distinct people, or its rows with their value. */
function bucketRowsSql(question: ChartQuestion, where: string, bucket: string): string {
  if (question.measure === 'people') return `SELECT ${bucket} AS bucket, e.person_id, NULL::numeric AS value FROM events e WHERE ${where} GROUP BY e.person_id`;
  return `SELECT ${bucket} AS bucket, e.person_id, e.value FROM events e WHERE ${where}`;
}

/**
 * Each row's person with the first-touch key (people's firstTouchKeys), read once per person: an outer
 * join to a non-strict expression makes PostgreSQL compute it where it reads people (a placeholder),
 * not once per row; the IS NOT NULL keeps the inner join's rows. '' (no such key) is the series
 * (none), as a NULL is.
 */
function peopleJoin(question: ChartQuestion, personId: string): { join: string; found: string } {
  return {
    join: `LEFT JOIN ${firstTouchKeys(question.breakdown!)} p ON p.workspace_id = $1 AND p.id = ${personId}`,
    found: 'p.id IS NOT NULL',
  };
}

/** The buckets' rows, each joined to its person's first touch (people distinct per bucket already). */
function brokenDownSql(question: ChartQuestion, rows: string): string {
  const value = question.measure === 'sum_value' ? 'coalesce(sum(d.value), 0)' : 'count(*)';
  const people = peopleJoin(question, 'd.person_id');
  return `SELECT d.bucket, p.key, ${value}::float8 AS value FROM (${rows}) AS d ${people.join} WHERE ${people.found} GROUP BY 1, 2`;
}

/**
 * Many buckets: rows grouped by their bucket in UTC wall time, made a timestamptz again once per group
 * (date_trunc with a zone argument costs about half as much again per row). The date_trunc expression
 * must stay as written: the expression statistics of migration 1765000000000 match it. interval and
 * breakdown are names parseChartInput checked against fixed lists.
 */
function rangeSql(question: ChartQuestion, where: string): string {
  const people = question.breakdown ? peopleJoin(question, 'e.person_id') : undefined;
  return `SELECT g.bucket AT TIME ZONE 'UTC' AS bucket, g.key, g.value FROM (
      SELECT date_trunc('${question.interval}', e.occurred_at AT TIME ZONE 'UTC') AS bucket, ${people ? 'p.key' : 'NULL::text'} AS key, ${MEASURE_SQL[question.measure]}::float8 AS value
        FROM events e ${people?.join ?? ''} WHERE ${where}${people ? ` AND ${people.found}` : ''} GROUP BY 1, 2) AS g`;
}
