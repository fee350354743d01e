// A people chart from the sketches (docs/decisions.md#charts-from-rollups, people; what the sketches
// hold: rollup.sql.ts). In the caller's REPEATABLE READ snapshot: the mark and the listed hours, then one
// statement: the sketches of the whole hours and days inside from..to with no hour listed (a whole
// clean week's or month's own sketch for a week or month bucket), and from events by index the distinct
// people of the rest: the partial hours at either end, the listed hours, the hours with a folded row
// expired since the last fold, and the rows not folded yet. They are merged here per bucket (and series
// key, the keys' names from event_touches as the count charts name them), a person counted once. Exact
// up to PERSON_SKETCH_EXACT people per bucket and series; past it within the sketch's error. A range
// without a whole hour runs the events-only statement.
import { PersonSketch } from '../domain/person-sketch';
import { bucketEnd, bucketStart, ChartQuestion } from './chart-rule';
import { chartStatement } from './chart-statement';
import type { ChartRow } from './charts.repository';
import type { Query } from './people-rollup';
import { runsOf, SKETCH_GRAINS } from './people-rollup';
import { HOUR_OF, PERSON_HASH } from './rollup.sql';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The whole UTC hours inside from..to (to is inclusive: a row at exactly the hour after is the next hour's). */
export function wholeHours(question: ChartQuestion): [Date, Date] {
  const h0 = new Date(Math.ceil(question.from.getTime() / HOUR) * HOUR);
  const h1 = new Date(Math.floor(question.to.getTime() / HOUR) * HOUR);
  return h0 < h1 ? [h0, h1] : [h0, h0];
}

/**
 * Which sketches answer each bucket inside h0..h1: a week's or month's own when the whole bucket is
 * inside and none of its hours is listed; else the sketch of each whole day with no hour listed, and of
 * each other hour not listed (listed hours are read from events).
 */
export function sketchesOf(
  question: ChartQuestion,
  [h0, h1]: [Date, Date],
  listed: Set<number>,
): Array<{ grain: number; at: Date }> {
  const wanted: Array<{ grain: number; at: Date }> = [];
  const clean = (lo: number, hi: number) => ![...listed].some((hour) => hour >= lo && hour < hi);
  for (const bucket of question.buckets) {
    const end = bucketEnd(bucket, question.interval);
    const [lo, hi] = [Math.max(bucket.getTime(), h0.getTime()), Math.min(end.getTime(), h1.getTime())];
    if (
      (question.interval === 'week' || question.interval === 'month') &&
      lo === bucket.getTime() &&
      hi === end.getTime() &&
      clean(lo, hi)
    ) {
      wanted.push({ grain: SKETCH_GRAINS[question.interval], at: bucket });
      continue;
    }
    for (let at = lo; at < hi;) {
      const grain = at % DAY === 0 && at + DAY <= hi && clean(at, at + DAY) ? SKETCH_GRAINS.day : SKETCH_GRAINS.hour;
      if (!listed.has(at) || grain === SKETCH_GRAINS.day) wanted.push({ grain, at: new Date(at) });
      at += grain * HOUR;
    }
  }
  return wanted;
}

// $1 workspace, $2 type, $3 from, $4 to, $5 h0, $6 h1, $7 folded_to, $8..$9 the sketches wanted, then the listed hours'
// runs.
const OF_CHART = `e.workspace_id = $1 AND e.type = $2 AND (e.expires_at IS NULL OR e.expires_at > now())`;
/** Past this many runs of listed hours in range, the events-only statement answers (a branch per run, each planned). */
const MAX_LISTED_BRANCHES = 60;

/** The mark, and the hours inside h0..h1 whose sketches are not to be read (epoch ms). */
const LISTED_SQL = `SELECT m.folded_to::text AS folded_to, ARRAY(
    SELECT (extract(epoch FROM x.hour) * 1000)::float8 FROM (
      SELECT l.hour FROM events_rollup_dirty l WHERE l.workspace_id = $1 AND l.type = $2 AND l.hour >= $3::timestamptz
        AND l.hour < $4::timestamptz
      UNION SELECT ${HOUR_OF('e')} FROM events e WHERE e.workspace_id = $1 AND e.type = $2
        AND e.occurred_at >= $3::timestamptz AND e.occurred_at < $4::timestamptz
        AND e.expires_at > m.expired_to AND e.expires_at <= now() AND e.received_at < m.folded_to) x) AS listed
  FROM events_rollup_mark m`;

/**
 * The statement: each bucket's (and key's) hashes from events (grain 0), and the sketches to merge. A
 * run of listed hours is a branch of its own: its range by index (an empty array joined by range made the
 * planner loop over every row).
 */
function peopleStatement(question: ChartQuestion, keyed: boolean, listed: number): string {
  const bucket = `date_trunc('${question.interval}', e.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const touch = keyed ? 'coalesce(e.touch, 0)' : '0::bigint';
  const row = `SELECT ${bucket} AS at, ${touch} AS touch, e.person_id FROM events e`;
  return `WITH r AS (
      ${row} WHERE ${OF_CHART} AND e.occurred_at >= $3::timestamptz AND e.occurred_at < $5::timestamptz
      UNION ALL ${row} WHERE ${OF_CHART} AND e.occurred_at >= $6::timestamptz AND e.occurred_at <= $4::timestamptz
      UNION ALL ${row} WHERE ${OF_CHART} AND e.occurred_at >= $5::timestamptz AND e.occurred_at < $6::timestamptz
        AND e.received_at >= $7::timestamptz
      ${Array.from(
        { length: listed },
        (_, i) => `UNION ALL ${row} WHERE ${OF_CHART} AND e.received_at < $7::timestamptz
        AND e.occurred_at >= $${10 + 2 * i}::timestamptz AND e.occurred_at < $${11 + 2 * i}::timestamptz`,
      ).join('\n')})
    SELECT 0 AS grain, d.at, d.touch::text AS touch, string_agg(d.h, ''::bytea) AS bytes
      FROM (SELECT DISTINCT r.at, r.touch, int8send(${PERSON_HASH('r.person_id')}) AS h FROM r) d GROUP BY 1, 2, 3
    UNION ALL
    SELECT p.grain, p.at, p.touch::text, p.sketch FROM events_rollup_people p
      JOIN unnest($8::int2[], $9::timestamptz[]) AS u(grain, at) ON p.grain = u.grain AND p.at = u.at
     WHERE p.workspace_id = $1 AND p.type = $2 AND p.keyed = ${keyed}`;
}

/** A people chart, inside the caller's REPEATABLE READ transaction. */
export async function readPeopleChart(query: Query, workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
  const [h0, h1] = wholeHours(question);
  const fromEvents = () => {
    const { sql, args } = chartStatement(workspaceId, question);
    return query(sql, args);
  };
  if (h0 >= h1) return fromEvents();
  const [{ folded_to, listed }] = await query(LISTED_SQL, [
    workspaceId,
    question.event,
    h0.toISOString(),
    h1.toISOString(),
  ]);
  const listedHours = new Set<number>(listed);
  const runs = runsOf(
    [...listedHours].map((at) => ({ workspace_id: workspaceId, type: question.event, hour: new Date(at) })),
  );
  if (runs.length > MAX_LISTED_BRANCHES) return fromEvents();
  const wanted = sketchesOf(question, [h0, h1], listedHours);
  const keyed = question.breakdown !== undefined;
  const [parts, names] = [
    await query(peopleStatement(question, keyed, runs.length), [
      workspaceId,
      question.event,
      question.from.toISOString(),
      question.to.toISOString(),
      h0.toISOString(),
      h1.toISOString(),
      folded_to,
      wanted.map((w) => w.grain),
      wanted.map((w) => w.at.toISOString()),
      ...runs.flatMap((run) => [new Date(run.from).toISOString(), new Date(run.to).toISOString()]),
    ]),
    keyed
      ? await query(
          `SELECT touch::text AS touch, ${question.breakdown} AS name FROM event_touches WHERE workspace_id = $1`,
          [workspaceId],
        )
      : [],
  ];
  const nameOf = new Map<string, string>(
    names.map((n: { touch: string; name: string | null }) => [n.touch, n.name ?? '']),
  );
  const sketches = new Map<string, { bucket: Date; key: string | null; sketch: PersonSketch }>();
  for (const part of parts as Array<{ grain: number; at: Date; touch: string; bytes: Buffer }>) {
    const bucket = bucketStart(new Date(part.at), question.interval);
    const key = keyed ? (nameOf.get(part.touch) ?? '') : null;
    const id = `${bucket.getTime()}\u001f${key}`;
    const entry = sketches.get(id) ?? { bucket, key, sketch: new PersonSketch() };
    sketches.set(id, entry);
    if (part.grain === 0) entry.sketch.addHashes(part.bytes);
    else entry.sketch.mergeBytes(part.bytes);
  }
  return [...sketches.values()]
    .map(({ bucket, key, sketch }) => ({ bucket, key, value: sketch.count() }))
    .filter((row) => row.value > 0);
}
