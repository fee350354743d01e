// Chart rollups (docs/decisions.md "Charts from rollups"): the database functions that keep the tables of
// migration 1767000000000, created by it. Every rule of what a rollup holds is here, once:
//
// A row of events is folded when received_at < mark.folded_to and it had not expired at mark.expired_to
// (expires_at IS NULL OR expires_at > expired_to). The rollups hold exactly the folded rows, each under
// its person's CURRENT first touch (dims source, medium, campaign only when the person exists; dim all
// always), as:
//   events_rollup               (workspace, type, grain hour|day, at, dim, key) -> events, sum of value
//   events_rollup_people_counts (workspace, type, kind day|week|month, period, dim, key) -> people
// A person is in a period's set when they have a folded row of the type in it. The sets are not stored:
// whether a person entered or left a set is asked of events by its key (workspace, person, occurred_at),
// an index probe per person and period the change touches, so a fold writes only the counts it changes.
// The worker's minute sweep folds (rollup-fold.sql.ts); whatever moves a folded row moves its rollup in
// the same transaction (statement triggers on events, row triggers on people). Ingest's INSERTs fire nothing.

const DIMS = (where: string, row: string) =>
  `CROSS JOIN LATERAL (VALUES ('all', ''), ('source', ${row}.k_source), ('medium', ${row}.k_medium), ('campaign', ${row}.k_campaign)) AS d(dim, key)
     WHERE ${where}`;

/** Adds the rows of `k` (workspace_id, type, hour, n, v, all_too, known, k_*) to the hour and day counts. */
export const addCounts = (k: string) => `INSERT INTO events_rollup AS r (workspace_id, type, grain, dim, at, key, events, value)
    SELECT k.workspace_id, k.type, g.grain, d.dim, (CASE g.grain WHEN 'hour' THEN k.hour ELSE date_trunc('day', k.hour) END) AT TIME ZONE 'UTC', d.key, sum(k.n), sum(k.v)
      FROM ${k} k CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
     ${DIMS("CASE d.dim WHEN 'all' THEN k.all_too ELSE k.known END", 'k')}
     GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(k.n) <> 0 OR sum(k.v) <> 0
    ON CONFLICT (workspace_id, type, grain, dim, at, key) DO UPDATE SET events = r.events + excluded.events, value = r.value + excluded.value`;

/** Adds `change` of each row of `x` (workspace_id, type, kind, lo, change, known, k_*) to the people counts. */
export const addPeople = (x: string, where = `d.dim = 'all' OR ${x}.known`) => `INSERT INTO events_rollup_people_counts AS c (workspace_id, type, kind, dim, period, key, people)
    SELECT ${x}.workspace_id, ${x}.type, ${x}.kind, d.dim, ${x}.lo AT TIME ZONE 'UTC', d.key, sum(${x}.change)
      FROM ${x} ${x} ${DIMS(where, x)}
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(${x}.change) <> 0
    ON CONFLICT (workspace_id, type, kind, dim, period, key) DO UPDATE SET people = c.people + excluded.people`;

/** Whether the person of period row `q` (lo..hi in UTC wall time) has a row of events there meeting `%N$s`. */
const has = (q: string, cond: number) => `EXISTS (SELECT 1 FROM events e WHERE e.workspace_id = ${q}.workspace_id AND e.person_id = ${q}.person_id
        AND e.occurred_at >= ${q}.lo AT TIME ZONE 'UTC' AND e.occurred_at < ${q}.hi AT TIME ZONE 'UTC' AND e.type = ${q}.type AND (%${cond}$s))`;

/**
 * A period's set before and after the change: `minus` (a row taken away was there) makes before true
 * and `plus` (a row added is there) after; else events answer (conditions %2$s before, %3$s after). A
 * week inside a month where the person had no row before (after) has none either, and a day in such a
 * week: most new people cost one probe.
 */
const side = (name: string, cond: number, flag: string, outer: string | null, inside: string) =>
  `(q.${flag} OR CASE WHEN ${outer ? `${outer}.${name} IS FALSE AND ${inside}` : 'false'} THEN false ELSE ${has('q', cond)} END) AS ${name}`;
const sides = (outer: string | null, inside: string) => `${side('before', 2, 'minus', outer, inside)}, ${side('after', 3, 'plus', outer, inside)}`;
const ofKind = (kind: string, outer: string, on: string) =>
  `SELECT q.*, ${sides(outer, outer === 'pm' ? `q.lo >= pm.lo AND q.hi <= pm.hi` : 'true')}
      FROM periods q LEFT JOIN ${outer} ON ${outer}.workspace_id = q.workspace_id AND ${outer}.type = q.type AND ${outer}.person_id = q.person_id AND ${outer}.lo = ${on}
     WHERE q.kind = '${kind}'`;

/**
 * events_rollup_apply(src, before, after): src is a statement of rows (workspace_id, type, occurred_at,
 * person_id, value, sign): sign 1 rows become folded, -1 rows stop being folded. before and after are
 * conditions on a row `e` of events: folded before the change, folded after it (rows of the change
 * itself need not meet them). Changes the counts and the people counts; answers the rollup rows written.
 */
const APPLY = `
CREATE FUNCTION events_rollup_apply(src text, before text, after text) RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE n bigint;
BEGIN
  EXECUTE format($q$
    WITH s AS (%1$s),
    g AS (SELECT s.workspace_id, s.type, s.person_id, date_trunc('hour', s.occurred_at AT TIME ZONE 'UTC') AS hour,
                 sum(s.sign) AS n, coalesce(sum(s.sign * s.value), 0) AS v, bool_or(s.sign > 0) AS plus, bool_or(s.sign < 0) AS minus
            FROM s AS s(workspace_id, type, occurred_at, person_id, value, sign) GROUP BY 1, 2, 3, 4),
    k AS (SELECT g.*, true AS all_too, p.id IS NOT NULL AS known,
                 coalesce(p.first_touch->>'source', '') AS k_source, coalesce(p.first_touch->>'medium', '') AS k_medium, coalesce(p.first_touch->>'campaign', '') AS k_campaign
            FROM g LEFT JOIN people p ON p.workspace_id = g.workspace_id AND p.id = g.person_id),
    counted AS (${addCounts('k')} RETURNING 1),
    periods AS (SELECT k.workspace_id, k.type, k.person_id, x.kind, date_trunc(x.kind, k.hour) AS lo, date_trunc(x.kind, k.hour) + ('1 ' || x.kind)::interval AS hi,
                       bool_or(k.plus) AS plus, bool_or(k.minus) AS minus, k.known, k.k_source, k.k_medium, k.k_campaign
                  FROM k CROSS JOIN (VALUES ('month'), ('week'), ('day')) AS x(kind) GROUP BY 1, 2, 3, 4, 5, 6, 9, 10, 11, 12),
    pm AS MATERIALIZED (SELECT q.*, ${sides(null, 'true')} FROM periods q WHERE q.kind = 'month'),
    pw AS MATERIALIZED (${ofKind('week', 'pm', "date_trunc('month', q.lo)")}),
    pd AS (${ofKind('day', 'pw', "date_trunc('week', q.lo)")}),
    moved AS (SELECT workspace_id, type, kind, lo, after::int - before::int AS change, known, k_source, k_medium, k_campaign
                FROM (SELECT * FROM pm UNION ALL SELECT * FROM pw UNION ALL SELECT * FROM pd) AS a WHERE after <> before),
    people_counted AS (${addPeople('moved')} RETURNING 1)
    SELECT (SELECT count(*) FROM counted) + (SELECT count(*) FROM people_counted)$q$, src, before, after) INTO n;
  DELETE FROM events_rollup WHERE events = 0;
  DELETE FROM events_rollup_people_counts WHERE people = 0;
  RETURN n;
END $f$;`;

/** The tables; key '' is a person without that first-touch field. */
export const ROLLUP_TABLES = `
CREATE TABLE events_rollup (
  workspace_id text NOT NULL, type text NOT NULL, grain text NOT NULL, dim text NOT NULL, at timestamptz NOT NULL, key text NOT NULL,
  events bigint NOT NULL, value numeric NOT NULL,
  PRIMARY KEY (workspace_id, type, grain, dim, at, key));
CREATE INDEX events_rollup_empty ON events_rollup (workspace_id) WHERE events = 0;
CREATE TABLE events_rollup_people_counts (
  workspace_id text NOT NULL, type text NOT NULL, kind text NOT NULL, dim text NOT NULL, period timestamptz NOT NULL, key text NOT NULL,
  people bigint NOT NULL,
  PRIMARY KEY (workspace_id, type, kind, dim, period, key));
CREATE INDEX events_rollup_people_counts_empty ON events_rollup_people_counts (workspace_id) WHERE people = 0;
CREATE TABLE events_rollup_mark (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  folded_to timestamptz NOT NULL DEFAULT '-infinity',
  expired_to timestamptz NOT NULL DEFAULT '-infinity');
INSERT INTO events_rollup_mark DEFAULT VALUES;`;

export const ROLLUP_APPLY = APPLY;
