import { MigrationInterface, QueryRunner } from 'typeorm';

// Outgoing webhooks beyond the spec: secret rotation (the previous secret signs too until
// previous_secret_until), endpoint health (disabled, last success, failing since; counts per 5 minutes
// for the success rate) and an optional rate limit per address.
const UP = `
ALTER TABLE webhook_endpoints
  ADD COLUMN previous_secret_sealed text,
  ADD COLUMN previous_secret_until timestamptz,
  ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
  ADD COLUMN disabled_at timestamptz,
  ADD COLUMN disabled_reason text,
  ADD COLUMN last_success_at timestamptz,
  ADD COLUMN failing_since timestamptz;

CREATE TABLE webhook_endpoint_health (
  workspace_id text NOT NULL,
  endpoint_id text NOT NULL,
  bucket timestamptz NOT NULL,
  succeeded integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, endpoint_id, bucket),
  FOREIGN KEY (workspace_id, endpoint_id) REFERENCES webhook_endpoints (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_endpoint_health_bucket ON webhook_endpoint_health (bucket);
`;

const DOWN = `
DROP TABLE IF EXISTS webhook_endpoint_health;
ALTER TABLE webhook_endpoints
  DROP COLUMN IF EXISTS previous_secret_sealed,
  DROP COLUMN IF EXISTS previous_secret_until,
  DROP COLUMN IF EXISTS rate_limit_per_second,
  DROP COLUMN IF EXISTS disabled_at,
  DROP COLUMN IF EXISTS disabled_reason,
  DROP COLUMN IF EXISTS last_success_at,
  DROP COLUMN IF EXISTS failing_since;
`;

export class WebhookEndpointHealth1764800000000 implements MigrationInterface {
  name = 'WebhookEndpointHealth1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
