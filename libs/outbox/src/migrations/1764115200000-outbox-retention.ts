import { MigrationInterface, QueryRunner } from 'typeorm';

// The outbox keeps relayed happenings for a week (for looking into what was sent), then the sweep
// deletes them; this index finds them without reading the whole table.
const UP = `CREATE INDEX outbox_relayed ON outbox (relayed_at) WHERE relayed_at IS NOT NULL;`;
const DOWN = `DROP INDEX IF EXISTS outbox_relayed;`;

export class OutboxRetention1764115200000 implements MigrationInterface {
  name = 'OutboxRetention1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
