// Chart rollups (docs/decisions.md#charts-from-rollups): the fold, the rebuild and the triggers of
// migration 1767200000001, which makes the tables. Every rule of what a rollup holds is here, once:
//
// A row of events is folded when received_at < mark.folded_to and it had not expired at mark.expired_to
// (expires_at IS NULL OR expires_at > expired_to). events_rollup holds exactly the folded rows, counted
// and summed by (workspace, type, grain, at, keyed, touch): grain 1 the UTC hour starting at `at`, grain
// 24 the UTC day; keyed rows by the first-touch key the row carries (NULL, a row whose key was never
// written, as 0: the rebuild writes the keys of such rows, from their person, before it folds), and the
// same counts over every key (keyed false, touch 0), which charts not broken down read.
// No join: the key is on the row. The worker's minute sweep folds; whatever deletes or changes a folded
// row moves its counts in the same statement (statement triggers on events with transition tables).
// Ingest's INSERTs fire nothing.
// People: events_rollup_people holds a sketch of the distinct people (person-sketch.ts, of
// PERSON_HASH) of the folded rows per (workspace, type, grain hour | day | week | month, at, keyed, touch),
// except for the hours listed in events_rollup_dirty: sketches cannot take a person away, so whatever
// deletes, changes or expires a folded row lists its (workspace, type, UTC hour) there instead, and the
// fold (people-rollup.ts, in Node, in the transaction of events_rollup_fold) sketches such hours again
// from events, and their days, weeks and months as unions. A sketch is good when none of its hours is listed.
import { PEOPLE_TOUCHES_SQL, personTouchSql } from '@app/people/first-touch-sql';

/** A row of events (alias `row`) folded under folded_to `to` and expired_to `expired` (SQL). */
const foldedUnder = (row: string, to: string, expired: string) =>
  `${row}.received_at < ${to} AND (${row}.expires_at IS NULL OR ${row}.expires_at > ${expired})`;

/**
 * Adds the rows of `src` (workspace_id, type, occurred_at, touch, value, sign) to the hour and day
 * counts, in key order (so two statements adding to the same counts wait, never deadlock), and empties
 * nothing: counts that reach 0 are deleted after.
 */
const addRows = (src: string) => `
  WITH s (workspace_id, type, occurred_at, touch, value, sign) AS (${src}),
  h AS (SELECT s.workspace_id, s.type, date_trunc('hour', s.occurred_at AT TIME ZONE 'UTC') AS hour, coalesce(s.touch,
    0) AS touch,
               sum(s.sign) AS n, coalesce(sum(s.sign * s.value), 0) AS v
          FROM s GROUP BY 1, 2, 3, 4),
  g AS (SELECT h.workspace_id, h.type, g.grain, (CASE g.grain WHEN 1 THEN h.hour
    ELSE date_trunc('day', h.hour) END) AT TIME ZONE 'UTC' AS at,
               k.keyed, CASE WHEN k.keyed THEN h.touch ELSE 0 END AS touch, sum(h.n) AS n, sum(h.v) AS v
          FROM h CROSS JOIN (VALUES (1::smallint), (24::smallint)) AS g(grain) CROSS
            JOIN (VALUES (true), (false)) AS k(keyed) GROUP BY 1, 2, 3, 4, 5, 6)
  INSERT INTO events_rollup AS r (workspace_id, type, grain, at, keyed, touch, events, value)
  SELECT g.workspace_id, g.type, g.grain, g.at, g.keyed, g.touch, g.n, g.v FROM g WHERE g.n <> 0 OR g.v <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (workspace_id, type, grain, keyed, at, touch) DO UPDATE
    SET events = r.events + excluded.events, value = r.value + excluded.value`;

/**
 * The rollups' lock (an advisory lock, held to the end of the transaction): the triggers share it, the
 * fold takes it alone or skips its turn (a try, which never queues: a fold waiting in line would make
 * every later trigger wait behind it, and a trigger's transaction may hold a person another one waits for),
 * the rebuild waits for it alone.
 */
const LOCK = `hashtextextended('events_rollup', 0)`;

/** The 64-bit hash of a person id the sketches hold (stable: PostgreSQL's hash partitioning relies on it). */
export const PERSON_HASH = (personId: string) => `hashtextextended(${personId}, 0)`;
/** The UTC hour of a row (alias `row`), as a timestamptz. */
export const HOUR_OF = (row: string) => `date_trunc('hour', ${row}.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/**
 * Lists the hours of the rows of `src` (alias `d`, a FROM item) whose people sketches are no longer right, in key
 * order.
 */
const markDirty = (src: string) => `
  INSERT INTO events_rollup_dirty (workspace_id, type, hour)
  SELECT DISTINCT d.workspace_id, d.type, ${HOUR_OF('d')} FROM ${src} ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING`;

const ROW = (alias: string, sign: string) =>
  `${alias}.workspace_id, ${alias}.type, ${alias}.occurred_at, ${alias}.touch, ${alias}.value, ${sign}`;

/**
 * events_rollup_fold(): folds the rows received since the mark, up to the start of the oldest
 * transaction still running in this database (received_at is its transaction's start, so every row
 * received before it is committed), and takes away the folded rows that expired since the last fold.
 * Folds nothing when a trigger's transaction holds the rollups' lock (the next minute's fold folds
 * it), or while a client's transaction is hidden from this role (grant it pg_read_all_stats): then
 * changed is NULL. Answers the rows it folded (received from..upto, not expired at `expired`), for
 * the people sketches to add in the same transaction, which keeps the lock.
 * events_rollup_rebuild(): writes the key of rows that have none (from their person), names every first
 * touch in event_touches, empties the rollups and folds every row again; every hour with folded rows is
 * listed for its people to be sketched again by the next folds (charts read such hours from events).
 */
const FOLD = `
CREATE FUNCTION events_rollup_fold(OUT changed bigint, OUT from_at timestamptz, OUT upto timestamptz,
  OUT expired timestamptz) LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark; hidden boolean;
BEGIN
  IF NOT pg_try_advisory_xact_lock(${LOCK}) THEN RETURN; END IF;
  SELECT * INTO m FROM events_rollup_mark;
  SELECT min(a.xact_start), coalesce(bool_or(a.backend_type = 'client backend'
    AND a.state IS NULL), false) INTO upto, hidden
    FROM pg_stat_get_activity(NULL) a WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND a.backend_type = 'client backend';
  IF hidden THEN upto := NULL; RETURN; END IF;
  upto := greatest(m.folded_to, least(coalesce(upto, now()), now()));
  expired := greatest(m.expired_to, now());
  ${addRows(`SELECT ${ROW('e', '1')} FROM events e WHERE e.received_at >= m.folded_to AND e.received_at < upto AND (e.expires_at IS NULL OR e.expires_at > expired)
     UNION ALL SELECT ${ROW('e', '-1')} FROM events e WHERE e.received_at < m.folded_to AND e.expires_at > m.expired_to
       AND e.expires_at <= expired`)};
  GET DIAGNOSTICS changed = ROW_COUNT;
  DELETE FROM events_rollup WHERE events = 0;
  ${markDirty(`events d WHERE d.received_at < m.folded_to AND d.expires_at > m.expired_to AND d.expires_at <= expired`)};
  UPDATE events_rollup_mark SET folded_to = upto, expired_to = expired;
  from_at := m.folded_to;
END $f$;

CREATE FUNCTION events_rollup_rebuild() RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE n bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(${LOCK});
  PERFORM set_config('work_mem', '256MB', true);
  TRUNCATE events_rollup, events_rollup_people, events_rollup_dirty;
  UPDATE events_rollup_mark SET folded_to = '-infinity', expired_to = '-infinity';
  -- Nothing is folded now, so the key written here moves no count.
  UPDATE events e SET touch = ${personTouchSql('e.workspace_id', 'e.person_id', false)} WHERE e.touch IS NULL;
  INSERT INTO event_touches (workspace_id, touch, source, medium, campaign) SELECT * FROM (${PEOPLE_TOUCHES_SQL}) AS t
    WHERE t.touch <> 0 ON CONFLICT DO NOTHING;
  n := (events_rollup_fold()).changed;
  INSERT INTO events_rollup_dirty (workspace_id, type, hour) SELECT r.workspace_id, r.type, r.at FROM events_rollup r
    WHERE r.grain = 1 AND NOT r.keyed;
  RETURN n;
END $f$;`;

const FOLDED = (row: string) => foldedUnder(row, 'm.folded_to', 'm.expired_to');

/**
 * A statement's deleted or changed rows: the folded ones leave their counts, the changed ones' new
 * versions join theirs, and the hours of both are listed for their people to be sketched again. A
 * statement that deleted or changed no row (a statement trigger fires all the same: ingest's key
 * rewrite usually finds nothing to rewrite) moves nothing, so it does not wait for a fold in progress
 * (migration 1767200000003; `waitsWhenEmpty` is the function as migration 1767200000002 made it).
 */
export const rollupMovedFunction = (waitsWhenEmpty = false) => `
CREATE OR REPLACE FUNCTION events_rollup_moved() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark;
BEGIN${
  waitsWhenEmpty
    ? ''
    : `
  IF NOT EXISTS (SELECT FROM old_rows) THEN RETURN NULL; END IF;`
}
  PERFORM pg_advisory_xact_lock_shared(${LOCK});
  SELECT * INTO m FROM events_rollup_mark;
  IF TG_OP = 'DELETE' THEN
    ${addRows(`SELECT ${ROW('o', '-1')} FROM old_rows o WHERE ${FOLDED('o')}`)};
    ${markDirty(`old_rows d WHERE ${FOLDED('d')}`)};
  ELSE
    ${addRows(`SELECT ${ROW('o', '-1')} FROM old_rows o WHERE ${FOLDED('o')} UNION ALL SELECT ${ROW('w', '1')} FROM ` + `new_rows w WHERE ${FOLDED('w')}`)};
    ${markDirty(`(SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows) d WHERE ${FOLDED('d')}`)};
  END IF;
  DELETE FROM events_rollup WHERE events = 0;
  RETURN NULL;
END $f$;`;

/**
 * The triggers on the events table `table` (the partitioned table's, made again when a conversion renames it events).
 */
export function rollupEventTriggers(table: string): string {
  return `
CREATE TRIGGER events_rollup_deleted AFTER DELETE
  ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_rollup_moved();
CREATE TRIGGER events_rollup_updated AFTER UPDATE
  ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION
  events_rollup_moved();`;
}

/** Drops the triggers and functions (the tables stay). */
export const ROLLUP_FUNCTIONS_DOWN = `
DROP TRIGGER IF EXISTS events_rollup_deleted ON events;
DROP TRIGGER IF EXISTS events_rollup_updated ON events;
DROP FUNCTION IF EXISTS events_rollup_moved, events_rollup_rebuild, events_rollup_fold;`;

/** The functions and triggers, on a database with the tables (migrations 1767200000001 and 1767200000002 make them). */
export const ROLLUP_UP = FOLD + rollupMovedFunction() + rollupEventTriggers('events');
