import { MigrationInterface, QueryRunner } from 'typeorm';

// issue 32: a relay pass may stop inside an outbox row (a shared ingest transaction writes hundreds of
// happenings in one row). `cut_after` is the id of the last happening handed to handlers of the row past
// the mark that a pass stopped inside (row id × 65,536 + place), NULL when the last pass ended at a
// row's end. The mark itself still names only whole rows, so "relayed" (retention) stays "at or below it".
const UP = `ALTER TABLE outbox_relay ADD COLUMN cut_after bigint`;
const DOWN = `ALTER TABLE outbox_relay DROP COLUMN cut_after`;

export class OutboxRelayCut1766950000000 implements MigrationInterface {
  name = 'OutboxRelayCut1766950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
