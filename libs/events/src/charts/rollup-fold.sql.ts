// Chart rollups (what they hold: rollup.sql.ts): the fold, the rebuild and the triggers that move a
// folded row's rollup with it, created by migration 1767000000000.
import { firstTouchTriggers } from '@app/people/first-touch-sql';
import { addCounts, addPeople, ROLLUP_APPLY, ROLLUP_TABLES } from './rollup.sql';

const PERSON_TRIGGERS = firstTouchTriggers('events_rollup_person', 'events_rollup_person_changed');

/** A row of events (alias `row`) folded under a mark's folded_to and expired_to (SQL or %L of format). */
const foldedUnder = (row: string, to: string, expired: string) => `${row}.received_at < ${to} AND (${row}.expires_at IS NULL OR ${row}.expires_at > ${expired})`;

/**
 * events_rollup_fold(): folds the rows received since the mark, up to the start of the oldest
 * transaction still running in this database (every row received before it is committed: received_at
 * is its transaction's start), and takes away the folded rows that expired since the last fold.
 * Holds the mark (FOR UPDATE) while it works; whatever else moves folded rows holds it FOR SHARE.
 * Folds nothing while a client's transaction is hidden from this role (grant pg_read_all_stats).
 * events_rollup_rebuild(): empties the rollups and folds every row again (nothing was folded before).
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
    format('SELECT workspace_id, type, occurred_at, person_id, value, 1 AS sign FROM events
      WHERE received_at >= %L AND received_at < %L AND (expires_at IS NULL OR expires_at > %L)', m.folded_to, upto, expired)
      || format(' UNION ALL SELECT workspace_id, type, occurred_at, person_id, value, -1 FROM events
      WHERE received_at < %L AND expires_at > %L AND expires_at <= %L', m.folded_to, m.expired_to, expired),
    CASE WHEN fresh THEN 'false' ELSE format('${foldedUnder('e', '%L', '%L')}', m.folded_to, m.expired_to) END,
    format('${foldedUnder('e', '%L', '%L')}', upto, expired));
  UPDATE events_rollup_mark SET folded_to = upto, expired_to = expired;
  RETURN n;
END $f$;

CREATE FUNCTION events_rollup_rebuild() RETURNS bigint LANGUAGE plpgsql AS $f$
BEGIN
  PERFORM 1 FROM events_rollup_mark FOR UPDATE;
  TRUNCATE events_rollup, events_rollup_people_counts;
  UPDATE events_rollup_mark SET folded_to = '-infinity', expired_to = '-infinity';
  PERFORM set_config('work_mem', '256MB', true);
  RETURN events_rollup_fold(true);
END $f$;`;

/**
 * Changes to one workspace's folded rows wait for each other (the workspaces of \`of\` locked in order), and
 * each statement after the lock sees what the one before committed: with no set rows to lock, two
 * erasures taking a person's last two rows of a day would each still see the other's row.
 */
const SERIAL = (of: string) => `pg_advisory_xact_lock(hashtextextended('events_rollup ' || w.ws, 0)) FROM (${of} ORDER BY 1) AS w(ws)`;

const FOLDED = (row: string) => foldedUnder(row, 'm.folded_to', 'm.expired_to');

/**
 * The triggers' functions: the rows a statement deleted or changed (before: the rows it left alone and
 * the old rows; after: the rows there now), and a person's first touch changed or gone.
 */
const TRIGGERS = `
CREATE FUNCTION events_rollup_moved() RETURNS trigger LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark;
BEGIN
  SELECT * INTO m FROM events_rollup_mark FOR SHARE;
  DROP TABLE IF EXISTS pg_temp.events_rollup_rows;
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows o WHERE ${FOLDED('o')}) THEN RETURN NULL; END IF;
    CREATE TEMP TABLE events_rollup_rows ON COMMIT DROP AS
      SELECT o.workspace_id, o.id, o.type, o.occurred_at, o.person_id, o.value, -1 AS sign FROM old_rows o WHERE ${FOLDED('o')};
  ELSE
    CREATE TEMP TABLE events_rollup_rows ON COMMIT DROP AS
      SELECT o.workspace_id, o.id, o.type, o.occurred_at, o.person_id, o.value, -1 AS sign FROM old_rows o WHERE ${FOLDED('o')}
      UNION ALL SELECT n.workspace_id, n.id, n.type, n.occurred_at, n.person_id, n.value, 1 FROM new_rows n WHERE ${FOLDED('n')};
  END IF;
  PERFORM ${SERIAL('SELECT DISTINCT workspace_id FROM pg_temp.events_rollup_rows')};
  PERFORM events_rollup_apply('SELECT workspace_id, type, occurred_at, person_id, value, sign FROM pg_temp.events_rollup_rows',
    format('${foldedUnder('e', '%L', '%L')} AND (e.workspace_id, e.id) NOT IN (SELECT workspace_id, id FROM pg_temp.events_rollup_rows WHERE sign > 0)', m.folded_to, m.expired_to),
    format('${foldedUnder('e', '%L', '%L')}', m.folded_to, m.expired_to));
  DROP TABLE pg_temp.events_rollup_rows;
  RETURN NULL;
END $f$;

CREATE FUNCTION events_rollup_rekey(ws text, person text, was jsonb, was_known boolean, now_is jsonb, now_known boolean) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE m events_rollup_mark;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events WHERE workspace_id = ws AND person_id = person) THEN RETURN; END IF;
  SELECT * INTO m FROM events_rollup_mark FOR SHARE;
  PERFORM ${SERIAL('SELECT ws')};
  WITH r AS (SELECT e.type, date_trunc('hour', e.occurred_at AT TIME ZONE 'UTC') AS hour, count(*) AS n, coalesce(sum(e.value), 0) AS v
               FROM events e WHERE e.workspace_id = ws AND e.person_id = person AND ${FOLDED('e')} GROUP BY 1, 2),
    t AS (SELECT -1 AS sign, was_known AS known, coalesce(was->>'source', '') AS k_source, coalesce(was->>'medium', '') AS k_medium, coalesce(was->>'campaign', '') AS k_campaign WHERE was_known
          UNION ALL SELECT 1, now_known, coalesce(now_is->>'source', ''), coalesce(now_is->>'medium', ''), coalesce(now_is->>'campaign', '') WHERE now_known),
    k AS (SELECT ws AS workspace_id, r.type, r.hour, t.sign * r.n AS n, t.sign * r.v AS v, false AS all_too, t.known, t.k_source, t.k_medium, t.k_campaign FROM r CROSS JOIN t),
    counted AS (${addCounts('k')}),
    x AS (SELECT DISTINCT r.type, p.kind, date_trunc(p.kind, r.hour) AS lo FROM r CROSS JOIN (VALUES ('day'), ('week'), ('month')) AS p(kind)),
    moved AS (SELECT ws AS workspace_id, x.type, x.kind, x.lo, t.sign AS change, t.known, t.k_source, t.k_medium, t.k_campaign FROM x CROSS JOIN t)
  ${addPeople('moved', "d.dim <> 'all' AND moved.known")};
  DELETE FROM events_rollup WHERE events = 0;
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

/** Drops the triggers, the functions (those of the reverted 1766900000000 too) and the tables. */
export const ROLLUP_DOWN = `
${PERSON_TRIGGERS.down}
DROP TRIGGER IF EXISTS events_rollup_deleted ON events;
DROP TRIGGER IF EXISTS events_rollup_updated ON events;
DROP FUNCTION IF EXISTS events_rollup_person_changed, events_rollup_rekey, events_rollup_moved, events_rollup_rebuild, events_rollup_fold, events_rollup_apply, events_rollup_src;
DROP TABLE IF EXISTS events_rollup, events_rollup_people, events_rollup_people_counts, events_rollup_mark;`;

/** Tables, functions and triggers, on a database without them. */
export const ROLLUP_UP = ROLLUP_TABLES + ROLLUP_APPLY + FOLD + TRIGGERS + rollupEventTriggers('events');
