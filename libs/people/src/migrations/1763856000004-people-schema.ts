import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of people, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
CREATE TABLE people (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  name text,
  email text,
  stage text,
  stage_changed_at timestamptz,
  purchases integer NOT NULL DEFAULT 0,
  engaged_at timestamptz,
  os text,
  fields jsonb NOT NULL DEFAULT '{}',
  first_touch jsonb,
  first_touch_at timestamptz,
  merged_into text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX people_created ON people (workspace_id, created_at DESC, id DESC) WHERE merged_into IS NULL;
CREATE INDEX people_stage ON people (workspace_id, stage) WHERE merged_into IS NULL;

CREATE TABLE identities (
  workspace_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('email', 'anon_id', 'account_id')),
  value text NOT NULL,
  person_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, kind, value),
  FOREIGN KEY (workspace_id, person_id) REFERENCES people(workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX identities_person ON identities (workspace_id, person_id);

CREATE TABLE lists (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  address text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, address)
);

CREATE TABLE subscriptions (
  workspace_id text NOT NULL,
  list_id text NOT NULL,
  person_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('subscribed', 'unsubscribed')),
  consent jsonb NOT NULL,
  consent_text text NOT NULL,
  consent_ip text,
  granted_at timestamptz NOT NULL,
  source_label text,
  source jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  unsubscribed_at timestamptz,
  PRIMARY KEY (workspace_id, list_id, person_id)
);
CREATE INDEX subscriptions_person ON subscriptions (workspace_id, person_id);
`;

export class PeopleSchema1763856000004 implements MigrationInterface {
  name = 'PeopleSchema1763856000004';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS subscriptions, lists, identities, people CASCADE;`);
  }
}
