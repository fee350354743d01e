import { MigrationInterface, QueryRunner } from 'typeorm';

// The workspace's history window (docs/decisions.md#history-starts-no-automation): an event whose
// occurred_at is more than this many hours before its arrival is history and starts no automation.
// An hour to a year; the service refuses anything else before it reaches the check.
const UP = `
ALTER TABLE workspaces ADD COLUMN history_window_hours integer NOT NULL DEFAULT 24,
  ADD CONSTRAINT workspaces_history_window CHECK (history_window_hours BETWEEN 1 AND 8760);
`;

export class HistoryWindow1767310000000 implements MigrationInterface {
  name = 'HistoryWindow1767310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE workspaces DROP CONSTRAINT IF EXISTS workspaces_history_window, DROP COLUMN IF EXISTS history_window_hours`,
    );
  }
}
