import { MigrationInterface, QueryRunner } from 'typeorm';
import { rollupMovedFunction } from '../charts/rollup.sql';

// The rollups' trigger returns at once for a statement that deleted or changed no row of
// events, instead of first waiting for a fold in progress (the fold holds the rollups' lock while it
// sketches people): ingest's key rewrite, which usually rewrites nothing, no longer waits for it.
export class RollupMovedSkipsEmpty1767200000003 implements MigrationInterface {
  name = 'RollupMovedSkipsEmpty1767200000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(rollupMovedFunction());
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(rollupMovedFunction(true));
  }
}
