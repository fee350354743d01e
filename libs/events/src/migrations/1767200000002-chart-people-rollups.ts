import { MigrationInterface, QueryRunner } from 'typeorm';
import { ROLLUP_FUNCTIONS_DOWN, ROLLUP_UP } from '../charts/rollup.sql';

// Chart rollups (docs/decisions.md#charts-from-rollups, people): sketches of the distinct people
// per (workspace, type, grain, at, keyed, touch), grain 1 a UTC hour, 24 a day, 168 a week from
// Monday, 744 a month; sketch is person-sketch.ts's bytes. events_rollup_dirty lists the UTC hours whose folded rows
// were deleted, changed or expired since their sketch (read from events until a fold sketches them again).
// Then the functions and triggers (rollup.sql.ts) and the rebuild, which lists every hour.
const TABLES = `
CREATE TABLE events_rollup_people (
  workspace_id text NOT NULL, type text NOT NULL, grain smallint NOT NULL, at timestamptz NOT NULL,
    keyed boolean NOT NULL, touch bigint NOT NULL,
  sketch bytea NOT NULL,
  PRIMARY KEY (workspace_id, type, grain, keyed, at, touch));
CREATE TABLE events_rollup_dirty (
  workspace_id text NOT NULL, type text NOT NULL, hour timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, type, hour));`;

export class ChartPeopleRollups1767200000002 implements MigrationInterface {
  name = 'ChartPeopleRollups1767200000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_FUNCTIONS_DOWN + TABLES + ROLLUP_UP);
    await queryRunner.query('SELECT events_rollup_rebuild()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_FUNCTIONS_DOWN + 'DROP TABLE IF EXISTS events_rollup_people, events_rollup_dirty;');
  }
}
