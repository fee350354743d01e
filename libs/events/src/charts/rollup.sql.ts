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

/**
 * Whether the person of period row `q` (lo..hi in UTC wall time) has a row of events there meeting `%N$s`.
 * The type IS TRUE is no index condition: the probe takes events' key (workspace, person, occurred_at),
 * never events_chart's (workspace, type, occurred_at), which reads every person's rows of the period.
 */
const has = (kind: string, cond: number) => `EXISTS (SELECT 1 FROM events e WHERE e.workspace_id = d.workspace_id AND e.person_id = d.person_id
        AND e.occurred_at >= d.${kind} AT TIME ZONE 'UTC' AND e.occurred_at < (d.${kind} + interval '1 ${kind}') AT TIME ZONE 'UTC' AND (e.type = d.type) IS TRUE AND (%${cond}$s))`;

/**
 * A person's day, week and month sets before and after the change, on each of their days in it: `minus`
 * (a row taken away was there) makes before true and `plus` (a row added is there) after; else events
 * answer (conditions %2$s before, %3$s after). A week inside a month where the person had no row before
 * (after) has none either, and a day in such a week: most new people cost one probe. Each step reads the
 * one before as it is (no join between them: their sizes are not known when the statement is planned).
 */
const side = (kind: string, state: string, cond: number, flag: string, outer: string | null) =>
  `(d.${flag}_${kind} OR CASE WHEN ${outer ? `d.${state}_${outer} IS FALSE${kind === 'week' ? ` AND d.week >= d.month AND d.week + interval '1 week' <= d.month + interval '1 month'` : ''}` : 'false'}
        THEN false ELSE ${has(kind, cond)} END) AS ${state}_${kind}`;
const sides = (kind: string, outer: string | null) => `${side(kind, 'before', 2, 'minus', outer)}, ${side(kind, 'after', 3, 'plus', outer)}`;
/** The people counts' change of each (person, kind, period): once, on the person's first day in it. */
const moved = (kind: string, first: string) =>
  `SELECT workspace_id, type, '${kind}' AS kind, ${kind} AS lo, after_${kind}::int - before_${kind}::int AS change, known, k_source, k_medium, k_campaign
     FROM sd d WHERE ${first} AND after_${kind} <> before_${kind}`;

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
    kc AS (SELECT k.workspace_id, k.type, k.hour, sum(k.n) AS n, sum(k.v) AS v, true AS all_too, k.known, k.k_source, k.k_medium, k.k_campaign FROM k GROUP BY 1, 2, 3, 7, 8, 9, 10),
    counted AS (${addCounts('kc')} RETURNING 1),
    days AS (SELECT k.workspace_id, k.type, k.person_id, date_trunc('day', k.hour) AS day, date_trunc('week', k.hour) AS week, date_trunc('month', k.hour) AS month,
                    bool_or(k.plus) AS plus_day, bool_or(k.minus) AS minus_day, k.known, k.k_source, k.k_medium, k.k_campaign
               FROM k GROUP BY 1, 2, 3, 4, 5, 6, 9, 10, 11, 12),
    dw AS (SELECT d.*, bool_or(d.plus_day) OVER w AS plus_week, bool_or(d.minus_day) OVER w AS minus_week, row_number() OVER (w ORDER BY d.day) = 1 AS first_week,
                  bool_or(d.plus_day) OVER m AS plus_month, bool_or(d.minus_day) OVER m AS minus_month, row_number() OVER (m ORDER BY d.day) = 1 AS first_month
             FROM days d WINDOW w AS (PARTITION BY d.workspace_id, d.type, d.person_id, d.week), m AS (PARTITION BY d.workspace_id, d.type, d.person_id, d.month)),
    sm AS MATERIALIZED (SELECT d.*, ${sides('month', null)} FROM dw d),
    sw AS MATERIALIZED (SELECT d.*, ${sides('week', 'month')} FROM sm d),
    sd AS MATERIALIZED (SELECT d.*, ${sides('day', 'week')} FROM sw d),
    each AS (${moved('month', 'first_month')} UNION ALL ${moved('week', 'first_week')} UNION ALL ${moved('day', 'true')}),
    moved AS (SELECT workspace_id, type, kind, lo, sum(change) AS change, known, k_source, k_medium, k_campaign FROM each GROUP BY 1, 2, 3, 4, 6, 7, 8, 9),
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
