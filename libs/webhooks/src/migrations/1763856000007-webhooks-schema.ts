import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of webhooks, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
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
`;

export class WebhooksSchema1763856000007 implements MigrationInterface {
  name = 'WebhooksSchema1763856000007';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS delivery_attempts, deliveries, webhook_endpoints CASCADE;`);
  }
}
