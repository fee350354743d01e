import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of events, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
-- The timeline. Partition-ready by time: occurred_at is part of the key.
CREATE TABLE events (
  workspace_id text NOT NULL,
  id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  person_id text NOT NULL,
  type text NOT NULL,
  value numeric,
  properties jsonb,
  detail text,
  source jsonb,
  expires_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id, occurred_at)
);
CREATE INDEX events_person ON events (workspace_id, person_id, occurred_at DESC);
CREATE INDEX events_type ON events (workspace_id, type, occurred_at DESC);
CREATE INDEX events_expiry ON events (expires_at) WHERE expires_at IS NOT NULL;

-- Kept apart from events so a repeat answers the first answer even after the row expired.
CREATE TABLE idempotency_keys (
  workspace_id text NOT NULL,
  key text NOT NULL,
  status text NOT NULL,
  record_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- Custom names become chart and automation choices only once seen.
CREATE TABLE event_names (
  workspace_id text NOT NULL,
  name text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, name)
);

-- The heartbeat: action, answer, origin, minute; no bodies, no addresses.
CREATE TABLE heartbeat (
  workspace_id text NOT NULL,
  minute timestamptz NOT NULL,
  action text NOT NULL,
  answer text NOT NULL,
  origin text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, minute, action, answer, origin)
);
CREATE INDEX heartbeat_minute ON heartbeat (minute);
`;

export class EventsSchema1763856000005 implements MigrationInterface {
  name = 'EventsSchema1763856000005';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS heartbeat, event_names, idempotency_keys, events CASCADE;`);
  }
}
