// A people chart from the rollups (docs/decisions.md "Charts from rollups"). The people counts hold, per
// day, week and month, the people with a folded row there; no person sets are stored, so whether a
// person is in a bucket is asked of events by its key (workspace, person, occurred_at), a probe per person.
// Whole buckets: the counts, corrected person by person for the people the rows not folded, or folded
// and expired since, touch (in the answer now? in the counts?). A first or last bucket that reaches
// outside from..to goes one of three ways, the cheapest by the rollups' row counts (edgePlan):
//   adjust: as a whole bucket, its rows outside from..to touching their people too (few rows outside);
//   rows:   its distinct people read from its rows inside from..to (few rows inside);
//   people: each of the workspace's people probed for a row inside (fewer people than rows).
import { firstTouchKeys } from '@app/people';
import { bucketEnd, ChartQuestion } from './chart-rule';
import { FOLDED, LIVE, OF_CHART, RollupMark } from './rollup-read.sql';

export type EdgePlan = 'adjust' | 'rows' | 'people';
/** The plan of each edge bucket by its start (ISO); an edge not named is adjusted. */
export type EdgePlans = Record<string, EdgePlan>;

/** A bucket of which part lies outside from..to; rows inside: lo <= occurred_at < end, occurred_at <= to. */
export interface PeopleEdge {
  bucket: Date;
  end: Date;
  lo: Date;
}

/** The first and last buckets of a people chart when part of them lies outside from..to. */
export function peopleEdges(question: ChartQuestion): PeopleEdge[] {
  const { buckets, interval, from, to } = question;
  const edges: PeopleEdge[] = [];
  for (const bucket of new Set([buckets[0], buckets[buckets.length - 1]])) {
    const end = bucketEnd(bucket, interval);
    if (bucket < from || end.getTime() - 1 > to.getTime()) edges.push({ bucket, end, lo: bucket < from ? from : bucket });
  }
  return edges;
}

/** Rows of the edge inside and outside from..to (the rollups' folded rows), and the workspace's people. */
export interface EdgeSizes {
  inside: number;
  outside: number;
  people: number;
}

/** The cheapest way: a row read costs about a third of a person's probe. */
export function edgePlan({ inside, outside, people }: EdgeSizes): EdgePlan {
  const costs: Array<[EdgePlan, number]> = [
    ['adjust', outside + 3 * Math.min(outside, people)],
    ['rows', inside],
    ['people', 3 * people],
  ];
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

/** The edge's rows in whole hours ($3..$4 the bucket, $5..$6 the hours holding its part inside). */
export const EDGE_SIZES_SQL = `SELECT coalesce(sum(r.events) FILTER (WHERE r.at >= $5 AND r.at < $6), 0)::float8 AS inside, coalesce(sum(r.events), 0)::float8 AS whole
  FROM events_rollup r WHERE r.workspace_id = $1 AND r.type = $2 AND r.grain = 'hour' AND r.dim = 'all' AND r.at >= $3 AND r.at < $4`;
/** The workspace's people, counted up to a million. */
export const PEOPLE_SIZE_SQL = `SELECT count(*)::float8 AS people FROM (SELECT 1 FROM people WHERE workspace_id = $1 LIMIT 1000000) AS p`;

/**
 * The statement: $5..$6 the buckets the counts answer (all but the edges read directly). Rows: bucket,
 * key (null unbroken; '' is (none)), value.
 */
export function peopleRollupStatement(workspaceId: string, question: ChartQuestion, mark: RollupMark, plans: EdgePlans): { sql: string; args: unknown[] } {
  const { buckets, interval, breakdown } = question;
  const direct = peopleEdges(question).filter((edge) => (plans[edge.bucket.toISOString()] ?? 'adjust') !== 'adjust');
  const counted = buckets.filter((bucket) => !direct.some((edge) => edge.bucket.getTime() === bucket.getTime()));
  const [lo, hi] = counted.length ? [counted[0], bucketEnd(counted[counted.length - 1], interval)] : [question.from, question.from];
  const args: unknown[] = [workspaceId, question.event, question.from.toISOString(), question.to.toISOString(), lo.toISOString(), hi.toISOString(), mark.folded_to, mark.expired_to];
  const arg = (value: Date) => `$${args.push(value.toISOString())}::timestamptz`;
  const bucketOf = (at: string) => `date_trunc('${interval}', ${at} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const endOf = (bucket: string) => `((${bucket} AT TIME ZONE 'UTC') + interval '1 ${interval}') AT TIME ZONE 'UTC'`;
  const inBucket = (bucket: string, since: string) =>
    `e.workspace_id = $1 AND e.person_id = t.person_id AND e.occurred_at >= ${since} AND e.occurred_at < ${endOf(bucket)} AND (e.type = $2) IS TRUE`;
  const directRows = direct.map((edge) => {
    const range = `e.occurred_at >= ${arg(edge.lo)} AND e.occurred_at < ${arg(edge.end)} AND e.occurred_at <= $4::timestamptz AND ${LIVE}`;
    if (plans[edge.bucket.toISOString()] === 'rows') {
      return `SELECT ${arg(edge.bucket)} AS bucket, e.person_id, 1 AS n FROM events e WHERE ${OF_CHART} AND ${range} GROUP BY e.person_id`;
    }
    // IS TRUE keeps the EXISTS a probe per person (a semi-join would read the range's rows).
    return `SELECT ${arg(edge.bucket)} AS bucket, t.id AS person_id, 1 AS n FROM people t
     WHERE t.workspace_id = $1 AND (EXISTS (SELECT 1 FROM events e WHERE e.workspace_id = $1 AND e.person_id = t.id AND (e.type = $2) IS TRUE AND ${range})) IS TRUE`;
  });
  const dim = breakdown ?? 'all';
  return {
    sql: `WITH adjust AS (
      SELECT e.occurred_at, e.person_id FROM events e WHERE ${OF_CHART} AND e.received_at >= $7::timestamptz
         AND e.occurred_at >= greatest($3::timestamptz, $5::timestamptz) AND e.occurred_at < $6::timestamptz AND e.occurred_at <= $4::timestamptz AND ${LIVE}
      UNION ALL
      SELECT e.occurred_at, e.person_id FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $5::timestamptz AND e.occurred_at < $6::timestamptz
         AND e.expires_at > $8::timestamptz AND e.expires_at <= now() AND e.received_at < $7::timestamptz
      UNION ALL
      SELECT e.occurred_at, e.person_id FROM events e WHERE ${OF_CHART} AND e.occurred_at >= $5::timestamptz AND e.occurred_at < $3::timestamptz AND ${FOLDED}
      UNION ALL
      SELECT e.occurred_at, e.person_id FROM events e WHERE ${OF_CHART} AND e.occurred_at > $4::timestamptz AND e.occurred_at < $6::timestamptz AND ${FOLDED}),
    touched AS (SELECT DISTINCT ${bucketOf('a.occurred_at')} AS bucket, a.person_id FROM adjust a),
    delta AS (SELECT t.bucket, t.person_id,
                     (EXISTS (SELECT 1 FROM events e WHERE ${inBucket('t.bucket', 'greatest(t.bucket, $3::timestamptz)')} AND e.occurred_at <= $4::timestamptz AND ${LIVE}))::int
                   - (EXISTS (SELECT 1 FROM events e WHERE ${inBucket('t.bucket', 't.bucket')} AND ${FOLDED}))::int AS n
                FROM touched t),
    persons AS (SELECT bucket, person_id, n FROM delta WHERE n <> 0${directRows.map((rows) => `\n      UNION ALL ${rows}`).join('')}),
    keyed AS (SELECT d.bucket, ${breakdown ? 'p.key' : "''"} AS key, d.n FROM persons d
                ${breakdown ? `JOIN ${firstTouchKeys(breakdown)} p ON p.workspace_id = $1 AND p.id = d.person_id` : ''}),
    rolled AS (SELECT c.period AS bucket, c.key, c.people AS n FROM events_rollup_people_counts c
                WHERE c.workspace_id = $1 AND c.type = $2 AND c.kind = '${interval}' AND c.dim = '${dim}' AND c.period >= $5::timestamptz AND c.period < $6::timestamptz)
    SELECT g.bucket, ${breakdown ? 'g.key' : 'NULL::text'} AS key, g.n::float8 AS value FROM (
      SELECT u.bucket, u.key, sum(u.n) AS n FROM (SELECT * FROM rolled UNION ALL SELECT * FROM keyed) AS u GROUP BY 1, 2) AS g
     WHERE g.n > 0`,
    args,
  };
}
