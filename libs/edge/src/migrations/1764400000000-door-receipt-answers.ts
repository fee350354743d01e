import { MigrationInterface, QueryRunner } from 'typeorm';

// A third-party door shows its last twenty receipts (time, provider event id, type, the answer given),
// so door_receipts keeps the type and answer beside the id it already had (never the body).
const UP = `
ALTER TABLE door_receipts ADD COLUMN type text, ADD COLUMN answer text, ADD COLUMN http_status integer;
CREATE INDEX door_receipts_latest ON door_receipts (door, received_at DESC);
CREATE INDEX door_receipts_received ON door_receipts (received_at);
`;
const DOWN = `
DROP INDEX IF EXISTS door_receipts_received;
DROP INDEX IF EXISTS door_receipts_latest;
ALTER TABLE door_receipts DROP COLUMN IF EXISTS http_status, DROP COLUMN IF EXISTS answer, DROP COLUMN IF EXISTS type;
`;

export class DoorReceiptAnswers1764400000000 implements MigrationInterface {
  name = 'DoorReceiptAnswers1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
