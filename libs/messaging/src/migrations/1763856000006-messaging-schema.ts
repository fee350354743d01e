import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of messaging, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
CREATE TABLE templates (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, name)
);

-- id is the message's row on the person's timeline (the id POST /api/v1/messages answers).
CREATE TABLE messages (
  workspace_id text NOT NULL,
  id text NOT NULL,
  person_id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  at timestamptz NOT NULL,
  subject text NOT NULL,
  text text NOT NULL,
  html text,
  template_id text,
  send_state text NOT NULL DEFAULT 'stored' CHECK (send_state IN ('stored', 'queued', 'sent', 'failed', 'received')),
  send_error text,
  provider_id text,
  status text CHECK (status IN ('delivered', 'opened', 'clicked', 'bounced', 'complained')),
  status_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX messages_at ON messages (workspace_id, at DESC, id DESC);
CREATE INDEX messages_person ON messages (workspace_id, person_id, at, id);
-- Global: the email door learns only the provider's id.
CREATE INDEX messages_provider ON messages (provider_id) WHERE provider_id IS NOT NULL;
`;

export class MessagingSchema1763856000006 implements MigrationInterface {
  name = 'MessagingSchema1763856000006';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS messages, templates CASCADE;`);
  }
}
