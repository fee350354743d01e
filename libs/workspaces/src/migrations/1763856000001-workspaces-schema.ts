import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of workspaces, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
CREATE TABLE workspaces (
  id text PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  public_key text NOT NULL UNIQUE,
  kind text NOT NULL DEFAULT 'app' CHECK (kind IN ('app', 'web')),
  allowed_origins text[] NOT NULL DEFAULT '{}',
  trial_stage boolean NOT NULL DEFAULT false,
  downloader_stage boolean NOT NULL DEFAULT true,
  activation_events text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  removed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, email)
);

CREATE TABLE api_keys (
  workspace_id text NOT NULL,
  id text NOT NULL,
  member_id text NOT NULL,
  key_hash text NOT NULL,
  hint text NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, member_id) REFERENCES members(workspace_id, id) ON DELETE CASCADE
);
-- Global on purpose: a bearer key is looked up before its workspace is known.
CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash);
`;

export class WorkspacesSchema1763856000001 implements MigrationInterface {
  name = 'WorkspacesSchema1763856000001';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS api_keys, members, workspaces CASCADE;`);
  }
}
