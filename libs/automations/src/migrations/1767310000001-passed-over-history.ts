import { MigrationInterface, QueryRunner } from 'typeorm';

// History starts no run (docs/decisions.md#history-starts-no-automation): each automation counts the
// happenings of history that matched its trigger and were passed over, for its page to say so.
const UP = `ALTER TABLE automations ADD COLUMN passed_over_history integer NOT NULL DEFAULT 0;`;

export class PassedOverHistory1767310000001 implements MigrationInterface {
  name = 'PassedOverHistory1767310000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE automations DROP COLUMN IF EXISTS passed_over_history`);
  }
}
