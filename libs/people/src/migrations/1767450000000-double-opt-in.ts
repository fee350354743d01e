import { MigrationInterface, QueryRunner } from 'typeorm';

// Double opt-in (docs/decisions.md#double-opt-in-confirms-by-a-post): a list may ask each subscriber to confirm by
// email; until they do, their subscription is pending, and the confirmation's time and address are kept beside
// the consent. The confirmation sweep removes a pending one after 30 days by created_at (the index).
const UP = `
ALTER TABLE lists ADD COLUMN double_opt_in boolean NOT NULL DEFAULT false;
ALTER TABLE subscriptions ADD COLUMN confirmed_at timestamptz, ADD COLUMN confirmed_ip text;
ALTER TABLE earlier_consents ADD COLUMN confirmed_at timestamptz, ADD COLUMN confirmed_ip text;
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check
  CHECK (status IN ('subscribed', 'pending', 'unsubscribed'));
CREATE INDEX subscriptions_pending ON subscriptions (created_at) WHERE status = 'pending';
`;

export class DoubleOptIn1767450000000 implements MigrationInterface {
  name = 'DoubleOptIn1767450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM subscriptions WHERE status = 'pending'; DROP INDEX IF EXISTS subscriptions_pending;
       ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
       ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('subscribed', 'unsubscribed'));
       ALTER TABLE subscriptions DROP COLUMN confirmed_at, DROP COLUMN confirmed_ip;
       ALTER TABLE earlier_consents DROP COLUMN confirmed_at, DROP COLUMN confirmed_ip;
       ALTER TABLE lists DROP COLUMN double_opt_in;`,
    );
  }
}
