// A people chart from the sketches (docs/decisions.md "Charts from rollups", people; what the sketches
// hold: rollup.sql.ts). In the caller's REPEATABLE READ snapshot: the mark and the listed days, then one
// statement: the sketches of the whole clean days inside from..to (a whole clean week's or month's own
// sketch for a week or month bucket), and from events by index the distinct people of the rest: the
// partial days at either end, the listed days, the days with a folded row expired since the last fold,
// and the rows not folded yet. They are merged here per bucket (and series key, the keys' names from
// event_touches as the count charts name them), a person counted once. Exact up to PERSON_SKETCH_EXACT
// people per bucket and series; past it within the sketch's error. Hour charts, and ranges without a
// whole day, run the events-only statement.
import { PersonSketch } from '../domain/person-sketch';
import { bucketEnd, bucketStart, ChartQuestion } from './chart-rule';
import { chartStatement } from './chart-statement';
import type { ChartRow } from './charts.repository';
import type { Query } from './people-rollup';
import { SKETCH_GRAINS } from './people-rollup';
import { DAY_OF, PERSON_HASH } from './rollup.sql';

const DAY = 86_400_000;

/** The whole UTC days inside from..to (to is inclusive: a row at exactly midnight after is the next day's). */
export function wholeDays(question: ChartQuestion): [Date, Date] {
  const d0 = new Date(Math.ceil(question.from.getTime() / DAY) * DAY);
  const d1 = new Date(Math.floor(question.to.getTime() / DAY) * DAY);
  return d0 < d1 ? [d0, d1] : [d0, d0];
}

/** Which sketches answer each bucket: its own when the whole bucket is whole clean days, else its clean days'. */
export function sketchesOf(question: ChartQuestion, [d0, d1]: [Date, Date], listed: Set<number>): Array<{ grain: number; at: Date }> {
  const wanted: Array<{ grain: number; at: Date }> = [];
  for (const bucket of question.buckets) {
    const end = bucketEnd(bucket, question.interval);
    const [lo, hi] = [Math.max(bucket.getTime(), d0.getTime()), Math.min(end.getTime(), d1.getTime())];
    const days: number[] = [];
    for (let at = lo; at < hi; at += DAY) days.push(at);
    const clean = days.filter((at) => !listed.has(at));
    if (question.interval !== 'day' && lo === bucket.getTime() && hi === end.getTime() && clean.length === days.length) {
      wanted.push({ grain: SKETCH_GRAINS[question.interval as 'week' | 'month'], at: bucket });
    } else wanted.push(...clean.map((at) => ({ grain: SKETCH_GRAINS.day, at: new Date(at) })));
  }
  return wanted;
}

// $1 workspace, $2 type, $3 from, $4 to, $5 d0, $6 d1, $7 folded_to, $8..$9 the sketches wanted, then the listed days.
const OF_CHART = `e.workspace_id = $1 AND e.type = $2 AND (e.expires_at IS NULL OR e.expires_at > now())`;
/** Past this many listed days in range, the events-only statement answers (a branch per listed day, each planned). */
const MAX_LISTED_BRANCHES = 60;

/** The mark, and the days inside d0..d1 whose sketches are not to be read (epoch ms). */
const LISTED_SQL = `SELECT m.folded_to::text AS folded_to, ARRAY(
    SELECT (extract(epoch FROM x.day) * 1000)::float8 FROM (
      SELECT l.day FROM events_rollup_dirty l WHERE l.workspace_id = $1 AND l.type = $2 AND l.day >= $3::timestamptz AND l.day < $4::timestamptz
      UNION SELECT ${DAY_OF('e')} FROM events e WHERE e.workspace_id = $1 AND e.type = $2 AND e.occurred_at >= $3::timestamptz AND e.occurred_at < $4::timestamptz
        AND e.expires_at > m.expired_to AND e.expires_at <= now() AND e.received_at < m.folded_to) x) AS listed
  FROM events_rollup_mark m`;

/**
 * The statement: each bucket's (and key's) hashes from events (grain 0), and the sketches to merge. A
 * listed day is a branch of its own: its range by index (an empty array joined by range made the planner
 * loop over every row).
 */
function peopleStatement(question: ChartQuestion, keyed: boolean, listed: number): string {
  const bucket = `date_trunc('${question.interval}', e.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
  const touch = keyed ? 'coalesce(e.touch, 0)' : '0::bigint';
  const row = `SELECT ${bucket} AS at, ${touch} AS touch, e.person_id FROM events e`;
  return `WITH r AS (
      ${row} WHERE ${OF_CHART} AND e.occurred_at >= $3::timestamptz AND e.occurred_at < $5::timestamptz
      UNION ALL ${row} WHERE ${OF_CHART} AND e.occurred_at >= $6::timestamptz AND e.occurred_at <= $4::timestamptz
      UNION ALL ${row} WHERE ${OF_CHART} AND e.occurred_at >= $5::timestamptz AND e.occurred_at < $6::timestamptz AND e.received_at >= $7::timestamptz
      ${Array.from({ length: listed }, (_, i) => `UNION ALL ${row} WHERE ${OF_CHART} AND e.received_at < $7::timestamptz
        AND e.occurred_at >= $${10 + i}::timestamptz AND e.occurred_at < $${10 + i}::timestamptz + interval '1 day'`).join('\n')})
    SELECT 0 AS grain, d.at, d.touch::text AS touch, string_agg(d.h, ''::bytea) AS bytes
      FROM (SELECT DISTINCT r.at, r.touch, int8send(${PERSON_HASH('r.person_id')}) AS h FROM r) d GROUP BY 1, 2, 3
    UNION ALL
    SELECT p.grain, p.at, p.touch::text, p.sketch FROM events_rollup_people p JOIN unnest($8::int2[], $9::timestamptz[]) AS u(grain, at) ON p.grain = u.grain AND p.at = u.at
     WHERE p.workspace_id = $1 AND p.type = $2 AND p.keyed = ${keyed}`;
}

/** A people chart, inside the caller's REPEATABLE READ transaction. */
export async function readPeopleChart(query: Query, workspaceId: string, question: ChartQuestion): Promise<ChartRow[]> {
  const [d0, d1] = wholeDays(question);
  const fromEvents = () => {
    const { sql, args } = chartStatement(workspaceId, question);
    return query(sql, args);
  };
  if (question.interval === 'hour' || d0 >= d1) return fromEvents();
  const [{ folded_to, listed }] = await query(LISTED_SQL, [workspaceId, question.event, d0.toISOString(), d1.toISOString()]);
  const listedDays = new Set<number>(listed);
  if (listedDays.size > MAX_LISTED_BRANCHES) return fromEvents();
  const wanted = sketchesOf(question, [d0, d1], listedDays);
  const keyed = question.breakdown !== undefined;
  const [parts, names] = [
    await query(peopleStatement(question, keyed, listedDays.size), [
      workspaceId,
      question.event,
      question.from.toISOString(),
      question.to.toISOString(),
      d0.toISOString(),
      d1.toISOString(),
      folded_to,
      wanted.map((w) => w.grain),
      wanted.map((w) => w.at.toISOString()),
      ...[...listedDays].map((at) => new Date(at).toISOString()),
    ]),
    keyed ? await query(`SELECT touch::text AS touch, ${question.breakdown} AS name FROM event_touches WHERE workspace_id = $1`, [workspaceId]) : [],
  ];
  const nameOf = new Map<string, string>(names.map((n: { touch: string; name: string | null }) => [n.touch, n.name ?? '']));
  const sketches = new Map<string, { bucket: Date; key: string | null; sketch: PersonSketch }>();
  for (const part of parts as Array<{ grain: number; at: Date; touch: string; bytes: Buffer }>) {
    const bucket = bucketStart(new Date(part.at), question.interval);
    const key = keyed ? (nameOf.get(part.touch) ?? '') : null;
    const id = `${bucket.getTime()}\u001f${key}`;
    const entry = sketches.get(id) ?? { bucket, key, sketch: new PersonSketch() };
    sketches.set(id, entry);
    if (part.grain === 0) entry.sketch.addHashes(part.bytes);
    else entry.sketch.merge(PersonSketch.fromBytes(part.bytes));
  }
  return [...sketches.values()].map(({ bucket, key, sketch }) => ({ bucket, key, value: sketch.count() })).filter((row) => row.value > 0);
}
