import { MigrationInterface, QueryRunner } from 'typeorm';
import { rollupEventTriggers, ROLLUP_DOWN, ROLLUP_UP } from '../charts/rollup.sql';

// issue 32 item 2 (docs/decisions.md "Charts from rollups"): counts, sums and person sets per hour, day,
// week and month, folded by the minute sweep and moved by every change to a folded row; then a first
// fold of every row already there. While events is being converted to months (EventsByMonth), the
// triggers go on the table that serves writes (the old one); finishConversion makes them again on the
// partitioned table when it takes the name.
/** The tables; key '' is a person without that first-touch field. */
const TABLES = `
CREATE TABLE events_rollup (
  workspace_id text NOT NULL, type text NOT NULL, grain text NOT NULL, dim text NOT NULL, at timestamptz NOT NULL, key text NOT NULL,
  events bigint NOT NULL, value numeric NOT NULL,
  PRIMARY KEY (workspace_id, type, grain, dim, at, key));
CREATE INDEX events_rollup_empty ON events_rollup (workspace_id) WHERE events = 0;
CREATE TABLE events_rollup_people (
  workspace_id text NOT NULL, type text NOT NULL, kind text NOT NULL, period timestamptz NOT NULL, person_id text NOT NULL,
  events bigint NOT NULL,
  PRIMARY KEY (workspace_id, type, kind, period, person_id));
CREATE INDEX events_rollup_people_empty ON events_rollup_people (workspace_id) WHERE events <= 0;
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

export class ChartRollups1766900000000 implements MigrationInterface {
  name = 'ChartRollups1766900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(TABLES + ROLLUP_UP + rollupEventTriggers('events'));
    await queryRunner.query('SELECT events_rollup_rebuild()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`${ROLLUP_DOWN}
DROP TABLE IF EXISTS events_rollup, events_rollup_people, events_rollup_people_counts, events_rollup_mark;`);
  }
}
