import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of automations, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
CREATE TABLE automations (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  number integer NOT NULL,
  name text NOT NULL,
  trigger jsonb NOT NULL,
  steps jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'paused', 'running')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, number)
);

CREATE TABLE automation_runs (
  workspace_id text NOT NULL,
  id text NOT NULL,
  automation_id text NOT NULL,
  person_id text,
  state text NOT NULL DEFAULT 'running',
  log jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX automation_runs_automation ON automation_runs (workspace_id, automation_id, created_at DESC);
`;

export class AutomationsSchema1763856000008 implements MigrationInterface {
  name = 'AutomationsSchema1763856000008';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS automation_runs, automations CASCADE;`);
  }
}
