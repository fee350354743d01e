import { MigrationInterface, QueryRunner } from 'typeorm';
import { CONVERTING, eventsShape, Run } from '../partitions/partitions.sql';

// The events export (docs/rest.md#every-event-out-as-a-stream) reads a workspace's timeline in (occurred_at, id)
// order, a keyset page at a time; without this every page would sort the whole range. A workspace's rows arrive
// mostly in time order, so its inserts land at the right edge of its part of the index
// (docs/decisions.md#the-events-export-reads-its-own-index). On the partitioned table each month gets it, and a
// month made later takes it when attached. While converting to months, both tables get it.
const index = (table: string) => `CREATE INDEX ${table}_export ON ${table} (workspace_id, occurred_at, id);`;

export class EventsExportOrder1768047291513 implements MigrationInterface {
  name = 'EventsExportOrder1768047291513';

  async up(queryRunner: QueryRunner): Promise<void> {
    const run: Run = (sql, params) => queryRunner.query(sql, params);
    await run(index('events'));
    if ((await eventsShape(run)) === 'converting') await run(index(CONVERTING));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const run: Run = (sql, params) => queryRunner.query(sql, params);
    if ((await eventsShape(run)) === 'converting') await run(`DROP INDEX IF EXISTS ${CONVERTING}_export;`);
    await run(`DROP INDEX IF EXISTS events_export;`);
  }
}
