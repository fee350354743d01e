import { MigrationInterface, QueryRunner } from 'typeorm';

// The outbox is written once and never updated. One row per transaction holds that
// transaction's happenings (a jsonb array), stamped with the writer's transaction id (xid8). The relay
// keeps one high-water mark (xid, id) in outbox_relay and reads past it only rows whose transactions
// have all finished (xid below the snapshot's xmin), so no commit order can hide a row behind the mark.
// "Relayed" is "at or below the mark"; retention deletes old relayed rows by time (a BRIN index: an
// insert-only table in time order costs it almost nothing per insert).
const UP = `
ALTER TABLE outbox ADD COLUMN xid xid8, ADD COLUMN happenings jsonb;
UPDATE outbox SET happenings = jsonb_build_array(jsonb_build_object('kind', kind, 'personId', person_id, 'payload', payload)),
                  xid = CASE WHEN relayed_at IS NULL THEN '2'::xid8 ELSE '1'::xid8 END;
CREATE TABLE outbox_relay (name text PRIMARY KEY, xid xid8 NOT NULL, id bigint NOT NULL);
INSERT INTO outbox_relay (name, xid, id) SELECT 'main', '1'::xid8, coalesce(max(id), 0) FROM outbox
  WHERE relayed_at IS NOT NULL;
DROP INDEX IF EXISTS outbox_pending;
DROP INDEX IF EXISTS outbox_relayed;
ALTER TABLE outbox DROP COLUMN kind, DROP COLUMN person_id, DROP COLUMN payload, DROP COLUMN relayed_at,
  ALTER COLUMN xid SET NOT NULL, ALTER COLUMN xid SET DEFAULT pg_current_xact_id(), ALTER COLUMN happenings
    SET NOT NULL;
CREATE INDEX outbox_order ON outbox (xid, id);
CREATE INDEX outbox_created ON outbox USING brin (created_at);
`;

const DOWN = `
ALTER TABLE outbox ADD COLUMN kind text, ADD COLUMN person_id text, ADD COLUMN payload jsonb,
  ADD COLUMN relayed_at timestamptz;
UPDATE outbox o SET kind = o.happenings -> 0 ->> 'kind', person_id = o.happenings -> 0 ->> 'personId', payload = o.happenings -> 0 -> 'payload',
  relayed_at = CASE WHEN (o.xid, o.id) <= (SELECT r.xid, r.id FROM outbox_relay r WHERE r.name = 'main') THEN now() END;
DROP INDEX IF EXISTS outbox_order;
DROP INDEX IF EXISTS outbox_created;
ALTER TABLE outbox DROP COLUMN xid, DROP COLUMN happenings, ALTER COLUMN kind SET NOT NULL, ALTER COLUMN payload
  SET NOT NULL;
DROP TABLE outbox_relay;
CREATE INDEX outbox_pending ON outbox (id) WHERE relayed_at IS NULL;
CREATE INDEX outbox_relayed ON outbox (relayed_at) WHERE relayed_at IS NOT NULL;
`;

export class OutboxHighWaterMark1765100000000 implements MigrationInterface {
  name = 'OutboxHighWaterMark1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
