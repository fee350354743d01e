import { MigrationInterface, QueryRunner } from 'typeorm';

// The first tables of edge, split out of InitialSchema1763856000000
// (a database that ran it counts this as run). Every tenant table
// and every non-global primary key or unique index begins with workspace_id.
const UP = `
-- Replays of third-party webhooks (the email door is one per deployment, so this is global).
CREATE TABLE door_receipts (
  door text NOT NULL,
  webhook_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (door, webhook_id)
);
`;

export class EdgeSchema1763856000002 implements MigrationInterface {
  name = 'EdgeSchema1763856000002';
  /** A database that ran this migration before the core split records this one as run too (platform's migrate). */
  static readonly splitFrom = 'InitialSchema1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS door_receipts CASCADE;`);
  }
}
