import { MigrationInterface, QueryRunner } from 'typeorm';

// The limits the operator sets per workspace, and the peak of each key in each ten-minute window that the owners'
// view of limits reads (docs/operations.md#limits). A limit with no row has the deployment's default.
const UP = `
CREATE TABLE workspace_limits (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  limit_name text NOT NULL,
  per_ten_minutes integer NOT NULL CHECK (per_ten_minutes BETWEEN 1 AND 10000000),
  set_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, limit_name)
);
-- No bodies and no addresses: key is a key id, an automation id, or visitors (the busiest visitor IP, unnamed).
CREATE TABLE limit_peaks (
  workspace_id text NOT NULL,
  limit_name text NOT NULL,
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  used integer NOT NULL,
  bound integer NOT NULL,
  refused integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, limit_name, key, window_start)
);
CREATE INDEX limit_peaks_window ON limit_peaks (window_start);
`;

export class WorkspaceLimits1768023417785 implements MigrationInterface {
  name = 'WorkspaceLimits1768023417785';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS limit_peaks, workspace_limits`);
  }
}
