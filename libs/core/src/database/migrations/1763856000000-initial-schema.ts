import { MigrationInterface, QueryRunner } from 'typeorm';

// The whole schema the spec needs as far as it is known (decisions.md section 2: every tenant table
// and every non-global primary key or unique index begins with workspace_id).
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

-- Custom names become chart and automation choices only once seen (interface.md events rule 7).
CREATE TABLE event_names (
  workspace_id text NOT NULL,
  name text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, name)
);

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

-- id is the message's row on the person's timeline (interface.md "Send answer").
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

CREATE TABLE webhook_endpoints (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  url text NOT NULL,
  triggers text[] NOT NULL,
  secret_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE deliveries (
  workspace_id text NOT NULL,
  id text NOT NULL,
  endpoint_id text NOT NULL,
  outbox_id bigint,
  type text NOT NULL,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, outbox_id, endpoint_id)
);
CREATE INDEX deliveries_endpoint ON deliveries (workspace_id, endpoint_id, created_at DESC);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_created ON deliveries (created_at);

CREATE TABLE delivery_attempts (
  workspace_id text NOT NULL,
  delivery_id text NOT NULL,
  number integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  duration_ms integer,
  status_code integer,
  body_excerpt text,
  error text,
  PRIMARY KEY (workspace_id, delivery_id, number),
  FOREIGN KEY (workspace_id, delivery_id) REFERENCES deliveries(workspace_id, id) ON DELETE CASCADE
);

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

-- Replays of third-party webhooks (the email door is one per deployment, so this is global).
CREATE TABLE door_receipts (
  door text NOT NULL,
  webhook_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (door, webhook_id)
);

-- interface.md rule 8: action, answer, origin, minute; no bodies, no addresses.
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

-- Happenings written in the same transaction as the row that caused them; the worker relays them.
CREATE TABLE outbox (
  workspace_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  person_id text,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  relayed_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
-- No NOTIFY trigger: PostgreSQL serializes the commits of every transaction that notifies, which would
-- cap ingest at a few hundred posts per second. Writers publish a Redis kick after commit instead.
CREATE INDEX outbox_pending ON outbox (id) WHERE relayed_at IS NULL;
`;

const DOWN = `
DROP TABLE IF EXISTS outbox, heartbeat, door_receipts, door_connections, automation_runs, automations,
  delivery_attempts, deliveries, webhook_endpoints, messages, templates, subscriptions, lists,
  event_names, idempotency_keys, events, identities, people, api_keys, members, workspaces CASCADE;
`;

export class InitialSchema1763856000000 implements MigrationInterface {
  name = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
