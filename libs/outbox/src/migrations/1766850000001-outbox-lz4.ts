import { MigrationInterface, QueryRunner } from 'typeorm';

// A batch's outbox row holds a few hundred happenings (tens of kilobytes of jsonb), which
// PostgreSQL compresses as it stores it; with pglz, its default, that compression cost about 3% of the
// ingest's PostgreSQL CPU in a profile of batches (bench/RESULTS.md). lz4 compresses several times
// faster (and reads back faster for the relay). A server built without lz4 (PGlite) keeps pglz.
const UP = `
DO $$ BEGIN
  ALTER TABLE outbox ALTER COLUMN happenings SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$;
`;

export class OutboxLz41766850000001 implements MigrationInterface {
  name = 'OutboxLz41766850000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE outbox ALTER COLUMN happenings SET COMPRESSION default`);
  }
}
