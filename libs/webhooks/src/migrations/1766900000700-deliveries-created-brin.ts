import { MigrationInterface, QueryRunner } from 'typeorm';

// Retention deletes deliveries by created_at (the minute sweep); nothing else reads them in that order.
// BRIN, not a btree (as events_received and outbox_created): created_at rises with the append order, so
// range summaries serve the sweep for almost nothing per write, where the btree took an entry at every
// insert and at every settlement (a settlement changes indexed columns, so its new row version is
// indexed anew): bench:webhooks' burst.
const UP = `
DROP INDEX IF EXISTS deliveries_created;
CREATE INDEX deliveries_created ON deliveries USING brin (created_at) WITH (pages_per_range = 32, autosummarize = on);
`;
const DOWN = `
DROP INDEX IF EXISTS deliveries_created;
CREATE INDEX deliveries_created ON deliveries (created_at);
`;

export class DeliveriesCreatedBrin1766900000700 implements MigrationInterface {
  name = 'DeliveriesCreatedBrin1766900000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
