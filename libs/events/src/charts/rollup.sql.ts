// Chart rollups (docs/decisions.md "Charts from rollups"): the database functions that keep the tables of
// migration 1766900000000, created by it. Every rule of what a rollup holds is here, once:
//
// A row of events is folded when received_at < mark.folded_to and it had not expired at mark.expired_to
// (expires_at IS NULL OR expires_at > expired_to). The rollups hold exactly the folded rows, each under
// its person's CURRENT first touch (dims source, medium, campaign only when the person exists; dim all
// always), as:
//   events_rollup               (workspace, type, grain hour|day, at, dim, key) -> events, sum of value
//   events_rollup_people        (workspace, type, kind day|week|month, period, person) -> events
//   events_rollup_people_counts (workspace, type, kind, period, dim, key) -> people
// The worker's minute sweep folds (events_rollup_fold); whatever moves a folded row moves its rollup in
// the same transaction: statement triggers on events (expiry, erasure: DELETE; merges: UPDATE) and row
// triggers on people (a first touch changed, a person deleted). The ingest's INSERTs fire nothing.
// A chart reads the rollups plus the rows not folded (chart-rollup.statement.ts).

import { firstTouchTriggers, peopleLeftJoin } from '@app/people/first-touch-sql';

const PERSON_TRIGGERS = firstTouchTriggers('events_rollup_person', 'events_rollup_person_changed');

/** A source's person sets: per day (dd), then per day, week and month (d), with the person's keys. */
const SETS = `dd AS (SELECT s.workspace_id, s.type, date_trunc('day', s.occurred_at AT TIME ZONE 'UTC') AS day, s.person_id, s.known, s.k_source, s.k_medium, s.k_campaign, sum(s.sign) AS n
             FROM s AS s(workspace_id, type, occurred_at, person_id, value, sign, all_too, known, k_source, k_medium, k_campaign)
            GROUP BY 1, 2, 3, 4, 5, 6, 7, 8),
    d AS (SELECT dd.workspace_id, dd.type, k.kind, date_trunc(k.kind, dd.day) AT TIME ZONE 'UTC' AS period, dd.person_id, dd.known, dd.k_source, dd.k_medium, dd.k_campaign, sum(dd.n) AS n
            FROM dd CROSS JOIN (VALUES ('day'), ('week'), ('month')) AS k(kind)
           GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 HAVING sum(dd.n) <> 0)`;

const KEYS = (ft: string) => ['source', 'medium', 'campaign'].map((d) => `coalesce(${ft}->>''${d}'', '''')`).join(', ');

/**
 * events_rollup_src(rows): rows (workspace_id, type, occurred_at, person_id, value, sign) as the rollups
 * count them, each with its person's current first touch. events_rollup_apply(src, with_sets): adds the
 * src rows (sign -1: takes them away) to the counts, and with with_sets to the person sets and their counts.
 */
const APPLY = `
CREATE FUNCTION events_rollup_src(rows text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT format('SELECT o.workspace_id, o.type, o.occurred_at, o.person_id, o.value, o.sign, true AS all_too, p.id IS NOT NULL AS known,
    ${KEYS('p.first_touch')} FROM (%s) AS o ${peopleLeftJoin('p', 'o.workspace_id', 'o.person_id')}', rows)
$f$;

CREATE FUNCTION events_rollup_apply(src text, with_sets boolean, fresh boolean DEFAULT false) RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE n bigint;
BEGIN
  EXECUTE format($q$
    WITH s AS (%s),
    h AS (SELECT s.workspace_id, s.type, date_trunc('hour', s.occurred_at AT TIME ZONE 'UTC') AS hour, s.all_too, s.known, s.k_source, s.k_medium, s.k_campaign,
                 sum(s.sign) AS n, coalesce(sum(s.sign * s.value), 0) AS v
            FROM s AS s(workspace_id, type, occurred_at, person_id, value, sign, all_too, known, k_source, k_medium, k_campaign)
           GROUP BY 1, 2, 3, 4, 5, 6, 7, 8)
    INSERT INTO events_rollup AS r (workspace_id, type, grain, dim, at, key, events, value)
    SELECT h.workspace_id, h.type, g.grain, d.dim, (CASE g.grain WHEN 'hour' THEN h.hour ELSE date_trunc('day', h.hour) END) AT TIME ZONE 'UTC', d.key, sum(h.n), sum(h.v)
      FROM h CROSS JOIN (VALUES ('hour'), ('day')) AS g(grain)
     CROSS JOIN LATERAL (VALUES ('all', ''), ('source', h.k_source), ('medium', h.k_medium), ('campaign', h.k_campaign)) AS d(dim, key)
     WHERE CASE d.dim WHEN 'all' THEN h.all_too ELSE h.known END
     GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(h.n) <> 0 OR sum(h.v) <> 0
    ON CONFLICT (workspace_id, type, grain, dim, at, key) DO UPDATE SET events = r.events + excluded.events, value = r.value + excluded.value$q$, src);
  GET DIAGNOSTICS n = ROW_COUNT;
  IF with_sets AND fresh THEN
    -- Into empty tables (a rebuild): every row new, the counts straight from the sets.
    EXECUTE format($q$
    WITH s AS (%s), ${SETS},
    added AS (INSERT INTO events_rollup_people (workspace_id, type, kind, period, person_id, events)
              SELECT d.workspace_id, d.type, d.kind, d.period, d.person_id, d.n FROM d)
    INSERT INTO events_rollup_people_counts (workspace_id, type, kind, dim, period, key, people)
    SELECT d.workspace_id, d.type, d.kind, k.dim, d.period, k.key, count(*)
      FROM d CROSS JOIN LATERAL (VALUES ('all', ''), ('source', d.k_source), ('medium', d.k_medium), ('campaign', d.k_campaign)) AS k(dim, key)
     WHERE k.dim = 'all' OR d.known
     GROUP BY 1, 2, 3, 4, 5, 6$q$, src);
  ELSIF with_sets THEN
    EXECUTE format($q$
    WITH s AS (%s), ${SETS},
    added AS (INSERT INTO events_rollup_people AS r (workspace_id, type, kind, period, person_id, events)
              SELECT d.workspace_id, d.type, d.kind, d.period, d.person_id, d.n FROM d WHERE d.n > 0
              ON CONFLICT (workspace_id, type, kind, period, person_id) DO UPDATE SET events = r.events + excluded.events
              RETURNING r.workspace_id, r.type, r.kind, r.period, r.person_id, 1 AS change, r.xmax::text = '0' AS crossed),
    taken AS (UPDATE events_rollup_people r SET events = r.events + d.n FROM d
               WHERE d.n < 0 AND r.workspace_id = d.workspace_id AND r.type = d.type AND r.kind = d.kind AND r.period = d.period AND r.person_id = d.person_id
              RETURNING r.workspace_id, r.type, r.kind, r.period, r.person_id, -1 AS change, r.events <= 0 AS crossed),
    crossed AS (SELECT * FROM added WHERE crossed UNION ALL SELECT * FROM taken WHERE crossed)
    INSERT INTO events_rollup_people_counts AS c (workspace_id, type, kind, dim, period, key, people)
    SELECT x.workspace_id, x.type, x.kind, k.dim, x.period, k.key, sum(x.change)
      FROM crossed x JOIN d ON d.workspace_id = x.workspace_id AND d.type = x.type AND d.kind = x.kind AND d.period = x.period AND d.person_id = x.person_id
     CROSS JOIN LATERAL (VALUES ('all', ''), ('source', d.k_source), ('medium', d.k_medium), ('campaign', d.k_campaign)) AS k(dim, key)
     WHERE k.dim = 'all' OR d.known
     GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (workspace_id, type, kind, dim, period, key) DO UPDATE SET people = c.people + excluded.people$q$, src);
    DELETE FROM events_rollup_people WHERE events <= 0;
  END IF;
  DELETE FROM events_rollup WHERE events = 0;
  DELETE FROM events_rollup_people_counts WHERE people = 0;
  RETURN n;
END $f$;`;

/**
 * events_rollup_fold(): folds the rows received since the mark, up to the start of the oldest
 * transaction still running in this database (every row received before it is committed: received_at
 * is its transaction's start), and takes away the folded rows that expired since the last fold.
 * Holds the mark (FOR UPDATE) while it works; whatever else moves folded rows holds it FOR SHARE.
 * Folds nothing while a client's transaction is hidden from this role (grant pg_read_all_stats).
 * events_rollup_rebuild(): empties the rollups and folds every row again.
 */
const FOLD = `
CREATE FUNCTION events_rollup_fold(fresh boolean DEFAULT false) RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark; upto timestamptz; hidden boolean; expired timestamptz; n bigint;
BEGIN
  SELECT * INTO m FROM events_rollup_mark FOR UPDATE;
  SELECT min(a.xact_start), coalesce(bool_or(a.backend_type = 'client backend' AND a.state IS NULL), false) INTO upto, hidden
    FROM pg_stat_get_activity(NULL) a WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database());
  IF hidden THEN RETURN 0; END IF;
  upto := greatest(m.folded_to, least(coalesce(upto, now()), now()));
  expired := greatest(m.expired_to, now());
  n := events_rollup_apply(
    events_rollup_src(format('SELECT workspace_id, type, occurred_at, person_id, value, 1 AS sign FROM events
      WHERE received_at >= %L AND received_at < %L AND (expires_at IS NULL OR expires_at > %L)', m.folded_to, upto, expired)
      || format(' UNION ALL SELECT workspace_id, type, occurred_at, person_id, value, -1 FROM events
      WHERE received_at < %L AND expires_at > %L AND expires_at <= %L', m.folded_to, m.expired_to, expired)), true, fresh);
  UPDATE events_rollup_mark SET folded_to = upto, expired_to = expired;
  RETURN n;
END $f$;

CREATE FUNCTION events_rollup_rebuild() RETURNS bigint LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM 1 FROM events_rollup_mark FOR UPDATE;
  TRUNCATE events_rollup, events_rollup_people, events_rollup_people_counts;
  UPDATE events_rollup_mark SET folded_to = '-infinity', expired_to = '-infinity';
  PERFORM set_config('work_mem', '256MB', true);
  RETURN events_rollup_fold(true);
END $f$;`;

const FOLDED = (row: string) => `${row}.received_at < m.folded_to AND (${row}.expires_at IS NULL OR ${row}.expires_at > m.expired_to)`;

/** The triggers' functions: the rows a statement deleted or changed, and a person's first touch changed or gone. */
const TRIGGERS = `
CREATE FUNCTION events_rollup_moved() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark;
BEGIN
  SELECT * INTO m FROM events_rollup_mark FOR SHARE;
  DROP TABLE IF EXISTS pg_temp.events_rollup_rows;
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows o WHERE ${FOLDED('o')}) THEN RETURN NULL; END IF;
    CREATE TEMP TABLE events_rollup_rows ON COMMIT DROP AS
      SELECT o.workspace_id, o.type, o.occurred_at, o.person_id, o.value, -1 AS sign FROM old_rows o WHERE ${FOLDED('o')};
  ELSE
    CREATE TEMP TABLE events_rollup_rows ON COMMIT DROP AS
      SELECT o.workspace_id, o.type, o.occurred_at, o.person_id, o.value, -1 AS sign FROM old_rows o WHERE ${FOLDED('o')}
      UNION ALL SELECT n.workspace_id, n.type, n.occurred_at, n.person_id, n.value, 1 FROM new_rows n WHERE ${FOLDED('n')};
  END IF;
  PERFORM events_rollup_apply(events_rollup_src('SELECT * FROM pg_temp.events_rollup_rows'), true);
  DROP TABLE pg_temp.events_rollup_rows;
  RETURN NULL;
END $f$;

CREATE FUNCTION events_rollup_rekey(ws text, person text, was jsonb, was_known boolean, now_is jsonb, now_known boolean) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark; rows text; touches text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events WHERE workspace_id = ws AND person_id = person) THEN RETURN; END IF;
  SELECT * INTO m FROM events_rollup_mark FOR SHARE;
  rows := format('SELECT e.workspace_id, e.type, e.occurred_at, e.person_id, e.value FROM events e
    WHERE e.workspace_id = %L AND e.person_id = %L AND e.received_at < %L AND (e.expires_at IS NULL OR e.expires_at > %L)', ws, person, m.folded_to, m.expired_to);
  touches := format('(SELECT -1 AS sign, %L::boolean AS known, ${KEYS('%L::jsonb')} WHERE %L::boolean
    UNION ALL SELECT 1, %L::boolean, ${KEYS('%L::jsonb')} WHERE %L::boolean)', was_known, was, was, was, was_known, now_known, now_is, now_is, now_is, now_known);
  PERFORM events_rollup_apply(format('SELECT r.*, t.sign, false, t.known, t.k_source, t.k_medium, t.k_campaign
    FROM (%s) r CROSS JOIN %s AS t(sign, known, k_source, k_medium, k_campaign)', rows, touches), false);
  EXECUTE format($q$
    INSERT INTO events_rollup_people_counts AS c (workspace_id, type, kind, dim, period, key, people)
    SELECT p.workspace_id, p.type, p.kind, k.dim, p.period, k.key, sum(t.sign)
      FROM (SELECT DISTINCT r.workspace_id, r.type, x.kind, date_trunc(x.kind, r.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period
              FROM (%s) r CROSS JOIN (VALUES ('day'), ('week'), ('month')) AS x(kind)) p
     CROSS JOIN %s AS t(sign, known, k_source, k_medium, k_campaign)
     CROSS JOIN LATERAL (VALUES ('source', t.k_source), ('medium', t.k_medium), ('campaign', t.k_campaign)) AS k(dim, key)
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(t.sign) <> 0
    ON CONFLICT (workspace_id, type, kind, dim, period, key) DO UPDATE SET people = c.people + excluded.people$q$, rows, touches);
  DELETE FROM events_rollup_people_counts WHERE people = 0;
END $f$;

CREATE FUNCTION events_rollup_person_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM events_rollup_rekey(OLD.workspace_id, OLD.id, OLD.first_touch, true, NULL, false);
  ELSE PERFORM events_rollup_rekey(NEW.workspace_id, NEW.id, OLD.first_touch, true, NEW.first_touch, true);
  END IF;
  RETURN NULL;
END $f$;

${PERSON_TRIGGERS.up}`;

/** The triggers on the events table `table` (the partitioned table's, made again when a conversion renames it events). */
export function rollupEventTriggers(table: string): string {
  return `
CREATE TRIGGER events_rollup_deleted AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_rollup_moved();
CREATE TRIGGER events_rollup_updated AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_rollup_moved();`;
}

/** The functions and people's triggers (migration 1766900000000 makes the tables first). */
export const ROLLUP_UP = APPLY + FOLD + TRIGGERS;

export const ROLLUP_DOWN = `
${PERSON_TRIGGERS.down}
DROP TRIGGER IF EXISTS events_rollup_deleted ON events;
DROP TRIGGER IF EXISTS events_rollup_updated ON events;
DROP FUNCTION IF EXISTS events_rollup_person_changed, events_rollup_rekey, events_rollup_moved, events_rollup_rebuild, events_rollup_fold, events_rollup_apply, events_rollup_src;`;
