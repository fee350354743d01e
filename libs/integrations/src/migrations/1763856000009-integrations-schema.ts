import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of integrations (third-party doors), split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
CREATE TABLE door_connections (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('payment', 'auth_a', 'auth_b', 'hosting')),
  token_hash text NOT NULL,
  secret_sealed text,
  domain text,
  options jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
-- Global: a door's path token is looked up before its workspace is known.
CREATE UNIQUE INDEX door_connections_token ON door_connections (token_hash);
`;

export class IntegrationsSchema1763856000009 implements MigrationInterface {
  name = 'IntegrationsSchema1763856000009';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS door_connections CASCADE;`);
  }
}
