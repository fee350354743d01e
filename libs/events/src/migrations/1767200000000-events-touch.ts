import { MigrationInterface, QueryRunner } from 'typeorm';
import { CONVERTING, eventsShape, Run } from '../partitions/partitions.sql';

// Chart rollups (docs/decisions.md#charts-from-rollups): each event row carries its person's
// first-touch key (`touch`, people's touchKey: 0 for no first touch), written by the ingest and
// rewritten with the person's rows when their first touch is set later or a merge moves rows, so a
// chart broken down by first touch needs no join to people. NULL is a row whose key is not known (rows
// written before this, or outside the ingest: notes, sent emails): read through the person.
// event_touches names the keys: written when a first touch is set, never changed (a key is its fields' hash).
const TOUCHES = `
CREATE TABLE event_touches (
  workspace_id text NOT NULL,
  touch bigint NOT NULL,
  source text NOT NULL,
  medium text NOT NULL,
  campaign text NOT NULL,
  PRIMARY KEY (workspace_id, touch)
);`;

export class EventsTouch1767200000000 implements MigrationInterface {
  name = 'EventsTouch1767200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const run: Run = (sql, params) => queryRunner.query(sql, params);
    // A column with no default: no row is rewritten. While converting to months, both tables get it.
    await run(`ALTER TABLE events ADD COLUMN touch bigint;`);
    if ((await eventsShape(run)) === 'converting') await run(`ALTER TABLE ${CONVERTING} ADD COLUMN touch bigint;`);
    await run(TOUCHES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const run: Run = (sql, params) => queryRunner.query(sql, params);
    await run(`DROP TABLE IF EXISTS event_touches;`);
    if ((await eventsShape(run)) === 'converting') await run(`ALTER TABLE ${CONVERTING} DROP COLUMN IF EXISTS touch;`);
    await run(`ALTER TABLE events DROP COLUMN IF EXISTS touch;`);
  }
}
