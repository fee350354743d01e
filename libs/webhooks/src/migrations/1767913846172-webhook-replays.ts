import { MigrationInterface, QueryRunner } from 'typeorm';

// Replays of a window to one address (docs/webhooks.md#replaying-a-window): the window, what it counts, how far
// the worker has come (the last happening made into a delivery, written in the transaction that stores those
// deliveries, so a happening is made once per replay), how many were sent, and the worker's lease on it.
const UP = `
CREATE TABLE webhook_replays (
  workspace_id text NOT NULL,
  id text NOT NULL,
  endpoint_id text NOT NULL,
  since timestamptz NOT NULL,
  until timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done')),
  total integer NOT NULL,
  made integer NOT NULL DEFAULT 0,
  done integer NOT NULL DEFAULT 0,
  after_id bigint,
  runner_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, endpoint_id) REFERENCES webhook_endpoints (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_replays_endpoint ON webhook_replays (workspace_id, endpoint_id, created_at DESC);
CREATE INDEX webhook_replays_unfinished ON webhook_replays (created_at) WHERE state <> 'done';
`;

export class WebhookReplays1767913846172 implements MigrationInterface {
  name = 'WebhookReplays1767913846172';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS webhook_replays;`);
  }
}
