import { MigrationInterface, QueryRunner } from 'typeorm';
import { monthsDue } from '../partitions/event-months';
import {
  CHART_INTERVALS,
  COLUMNS,
  CONVERTING,
  DEFAULT_PARTITION,
  DROP_MIRROR,
  dropLegacy,
  eventsShape,
  finishConversion,
  KEY,
  makeMonth,
  nameIndexes,
  Run,
} from '../partitions/partitions.sql';

// Events by month (docs/decisions.md#events-by-month): the events table partitioned by month of
// occurred_at. This only starts it, with short locks: the partitioned table beside the old one, the
// current month and those ahead, and a mirror of every change to the old table. An empty table (a new
// install) is then replaced at once; one with rows is copied over by the partitions sweep
// (PartitionUpkeep), batch by batch, while the old table keeps serving reads and writes, and replaced
// when the copy is done.
/**
 * The table, its indexes and statistics as the earlier migrations left them, partitioned by month, under `name`'s
 * prefix.
 */
function partitionedTable(name: string): string {
  return `
CREATE TABLE ${name} (
  workspace_id text NOT NULL,
  id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  person_id text NOT NULL,
  type text NOT NULL,
  value numeric,
  properties jsonb,
  detail text,
  source jsonb,
  expires_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ${name}_pkey PRIMARY KEY (${KEY})
) PARTITION BY RANGE (occurred_at);
CREATE INDEX ${name}_chart ON ${name} (workspace_id, type, occurred_at) INCLUDE (person_id, value, expires_at);
CREATE INDEX ${name}_expiry ON ${name} (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX ${name}_received ON ${name} USING brin (received_at) WITH (pages_per_range = 32, autosummarize = on);
${CHART_INTERVALS.map((i) => `CREATE STATISTICS ${name}_chart_${i} ON (date_trunc('${i}', occurred_at AT TIME ZONE 'UTC')) FROM ${name};`).join('\n')}
CREATE TABLE ${DEFAULT_PARTITION} PARTITION OF ${name} DEFAULT;`;
}

// While converting, every change to the old table is made to the new one too, a statement at a time
// (transition tables): a row is in the new table once copied or once written, whichever comes first.
const MIRROR = `
CREATE FUNCTION events_mirror_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${CONVERTING} (${COLUMNS}) SELECT ${COLUMNS} FROM new_rows ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE FUNCTION events_mirror_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${CONVERTING} p USING old_rows o
   WHERE p.workspace_id = o.workspace_id AND p.person_id = o.person_id AND p.occurred_at = o.occurred_at
     AND p.id = o.id;
  RETURN NULL;
END $$;
CREATE FUNCTION events_mirror_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ${CONVERTING} p USING old_rows o
   WHERE p.workspace_id = o.workspace_id AND p.person_id = o.person_id AND p.occurred_at = o.occurred_at
     AND p.id = o.id;
  INSERT INTO ${CONVERTING} (${COLUMNS}) SELECT ${COLUMNS} FROM new_rows ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER events_mirror_insert AFTER INSERT
  ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_mirror_insert();
CREATE TRIGGER events_mirror_delete AFTER DELETE
  ON events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_mirror_delete();
CREATE TRIGGER events_mirror_update AFTER UPDATE
  ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION
  events_mirror_update();`;

// Where the copy has got to: the last key copied (the old table's key order). Only while converting.
const CONVERSION = `
CREATE TABLE events_conversion (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  last_workspace text, last_person text, last_at timestamptz, last_id text,
  copied bigint NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO events_conversion DEFAULT VALUES;`;

/**
 * The short part of converting a plain events table: the partitioned table beside it, the mirror of
 * every change, the copy's mark. Locks the old table only for the moment of creating its triggers.
 */
async function beginConversion(run: Run): Promise<void> {
  await run(partitionedTable(CONVERTING) + MIRROR + CONVERSION);
}

/** Undoes a conversion not finished: the old table stands alone again, as it always stayed whole. */
async function abandonConversion(run: Run): Promise<void> {
  await run(`${DROP_MIRROR} DROP TABLE IF EXISTS events_conversion; DROP TABLE IF EXISTS ${CONVERTING} CASCADE;`);
}

/** A plain events table holding every row of the partitioned one, for going back (the migration's down). */
async function unpartition(run: Run): Promise<void> {
  await run(`
CREATE TABLE events_plain (LIKE events INCLUDING DEFAULTS);
INSERT INTO events_plain SELECT * FROM events;
DROP TABLE events CASCADE;
ALTER TABLE events_plain RENAME TO events;
ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (${KEY});
CREATE INDEX events_chart ON events (workspace_id, type, occurred_at) INCLUDE (person_id, value, expires_at);
CREATE INDEX events_expiry ON events (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX events_received ON events USING brin (received_at) WITH (pages_per_range = 32, autosummarize = on);
${CHART_INTERVALS.map((i) => `CREATE STATISTICS events_chart_${i} ON (date_trunc('${i}', occurred_at AT TIME ZONE 'UTC')) FROM events;`).join('\n')}`);
}

export class EventsByMonth1766300000000 implements MigrationInterface {
  name = 'EventsByMonth1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const run: Run = (sql, params) => queryRunner.query(sql, params);
    if ((await eventsShape(run)) !== 'plain') return;
    await beginConversion(run);
    await nameIndexes(run, CONVERTING, DEFAULT_PARTITION);
    for (const month of monthsDue(new Date())) await makeMonth(run, CONVERTING, month);
    const [{ empty }] = await run(`SELECT NOT EXISTS (SELECT 1 FROM events) AS empty`);
    if (empty && (await finishConversion(run))) await dropLegacy(run);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const run: Run = (sql, params) => queryRunner.query(sql, params);
    const shape = await eventsShape(run);
    if (shape === 'converting') await abandonConversion(run);
    if (shape === 'partitioned') await unpartition(run);
  }
}
