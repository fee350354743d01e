import { MigrationInterface, QueryRunner } from 'typeorm';

// Broadcasts (docs/graphql.md#broadcasts): one email to a list or a segment. Its recipients are fixed when sending
// starts, one row a person (docs/decisions.md#a-broadcasts-audience-is-fixed-when-sending-starts); a worker claims
// rows (claimed_by, claimed_at), marks one 'sending' before the provider call and settles it after
// (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms). Each email sent is a
// message naming its broadcast.
const UP = `
CREATE TABLE broadcasts (
  workspace_id text NOT NULL,
  id text NOT NULL,
  name text NOT NULL,
  list_id text,
  segment_id text,
  template_id text,
  subject text,
  body text,
  state text NOT NULL DEFAULT 'draft'
    CHECK (state IN ('draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled')),
  scheduled_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  audience integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  CHECK ((list_id IS NULL) <> (segment_id IS NULL)),
  CHECK (template_id IS NOT NULL OR (subject IS NOT NULL AND body IS NOT NULL))
);
CREATE INDEX broadcasts_due ON broadcasts (scheduled_at) WHERE state = 'scheduled';
CREATE INDEX broadcasts_sending ON broadcasts (workspace_id, id) WHERE state = 'sending';

CREATE TABLE broadcast_recipients (
  workspace_id text NOT NULL,
  broadcast_id text NOT NULL,
  person_id text NOT NULL,
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'skipped', 'cancelled')),
  reason text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_by text,
  claimed_at timestamptz,
  message_id text,
  provider_id text,
  sent_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, broadcast_id, person_id),
  FOREIGN KEY (workspace_id, broadcast_id) REFERENCES broadcasts (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX broadcast_recipients_open ON broadcast_recipients (workspace_id, broadcast_id, next_attempt_at)
  WHERE state IN ('queued', 'sending');
CREATE INDEX broadcast_recipients_person ON broadcast_recipients (workspace_id, person_id);

ALTER TABLE messages ADD COLUMN broadcast_id text;
CREATE INDEX messages_broadcast ON messages (workspace_id, broadcast_id) WHERE broadcast_id IS NOT NULL;
`;

export class Broadcasts1767700000001 implements MigrationInterface {
  name = 'Broadcasts1767700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX IF EXISTS messages_broadcast; ALTER TABLE messages DROP COLUMN IF EXISTS broadcast_id;
       DROP TABLE IF EXISTS broadcast_recipients; DROP TABLE IF EXISTS broadcasts;`,
    );
  }
}
