import { MigrationInterface, QueryRunner } from 'typeorm';

// Admin API: keys are listed with their last use (written at most once a minute per key).
const UP = `ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;`;
const DOWN = `ALTER TABLE api_keys DROP COLUMN IF EXISTS last_used_at;`;

export class KeyLastUse1764300000000 implements MigrationInterface {
  name = 'KeyLastUse1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
