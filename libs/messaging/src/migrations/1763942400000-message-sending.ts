import { MigrationInterface, QueryRunner } from 'typeorm';

// Messaging: a 'sending' claim so an email never leaves twice, the address each message went
// to or came from (the email door finds a reply's message by its sender), and the sweep's index.
const UP = `
ALTER TABLE messages DROP CONSTRAINT messages_send_state_check;
ALTER TABLE messages ADD CONSTRAINT messages_send_state_check
  CHECK (send_state IN ('stored', 'queued', 'sending', 'sent', 'failed', 'received'));
ALTER TABLE messages ADD COLUMN address text, ADD COLUMN sending_since timestamptz;
-- Global: the email door learns only the sender's address.
CREATE INDEX messages_out_address ON messages (address, at DESC) WHERE direction = 'out';
CREATE INDEX messages_unsent ON messages (created_at) WHERE send_state IN ('queued', 'sending');
`;

const DOWN = `
DROP INDEX IF EXISTS messages_unsent;
DROP INDEX IF EXISTS messages_out_address;
ALTER TABLE messages DROP COLUMN IF EXISTS sending_since, DROP COLUMN IF EXISTS address;
UPDATE messages SET send_state = 'queued' WHERE send_state = 'sending';
ALTER TABLE messages DROP CONSTRAINT messages_send_state_check;
ALTER TABLE messages ADD CONSTRAINT messages_send_state_check
  CHECK (send_state IN ('stored', 'queued', 'sent', 'failed', 'received'));
`;

export class MessageSending1763942400000 implements MigrationInterface {
  name = 'MessageSending1763942400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
