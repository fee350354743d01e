import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of outbox, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
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

export class OutboxSchema1763856000003 implements MigrationInterface {
  name = 'OutboxSchema1763856000003';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS outbox CASCADE;`);
  }
}
