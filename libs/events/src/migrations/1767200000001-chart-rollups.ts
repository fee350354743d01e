import { MigrationInterface, QueryRunner } from 'typeorm';
import { ROLLUP_FUNCTIONS_DOWN } from '../charts/rollup.sql';

// Chart rollups (docs/decisions.md#charts-from-rollups): counts and sums of events per hour and day
// and first-touch key, folded by the worker's minute sweep from the rows alone, moved by every delete or
// change of a folded row in its statement; then the rebuild, which writes the keys of the rows already
// there and folds them. Objects of the reverted designs (1766900000000, 1767000000000) are dropped
// first. While events is being converted to months (EventsByMonth), the triggers go on the table that
// serves writes (the old one); finishConversion makes them again on the partitioned table.
// The functions, the triggers and the rebuild are made by ChartPeopleRollups1767200000002 since it
// (they use its tables); a database that ran this before has them made again there.
// (CASCADE drops the reverted designs' triggers on people with their function.)
const EARLIER = `
DROP FUNCTION IF EXISTS events_rollup_person_changed, events_rollup_rekey, events_rollup_apply, events_rollup_src CASCADE;
DROP TABLE IF EXISTS events_rollup_people, events_rollup_people_counts;`;

/** events_rollup: what rollup.sql.ts says; events_rollup_mark: how far the fold has got. */
const TABLES = `
CREATE TABLE events_rollup (
  workspace_id text NOT NULL, type text NOT NULL, grain smallint NOT NULL, at timestamptz NOT NULL,
    keyed boolean NOT NULL, touch bigint NOT NULL,
  events bigint NOT NULL, value numeric NOT NULL,
  PRIMARY KEY (workspace_id, type, grain, keyed, at, touch));
CREATE INDEX events_rollup_empty ON events_rollup (workspace_id) WHERE events = 0;
CREATE TABLE events_rollup_mark (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  folded_to timestamptz NOT NULL DEFAULT '-infinity',
  expired_to timestamptz NOT NULL DEFAULT '-infinity');
INSERT INTO events_rollup_mark DEFAULT VALUES;`;

export class ChartRollups1767200000001 implements MigrationInterface {
  name = 'ChartRollups1767200000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      EARLIER + ROLLUP_FUNCTIONS_DOWN + 'DROP TABLE IF EXISTS events_rollup, events_rollup_mark;' + TABLES,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_FUNCTIONS_DOWN + 'DROP TABLE IF EXISTS events_rollup, events_rollup_mark;');
  }
}
