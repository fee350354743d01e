import { MigrationInterface, QueryRunner } from 'typeorm';

// A subscription keeps its withdrawal beside its consent (docs/decisions.md#withdrawal-beside-the-consent): when,
// how and from which address. The old unsubscribed_at, never written, becomes withdrawn_at. A consent replaced by
// a later subscribe to the same list is kept whole in earlier_consents, with its withdrawal.
const UP = `
ALTER TABLE subscriptions RENAME COLUMN unsubscribed_at TO withdrawn_at;
ALTER TABLE subscriptions
  ADD COLUMN withdrawn_via text
    CHECK (withdrawn_via IN ('api', 'one_click', 'preferences', 'complaint', 'console', 'bounce')),
  ADD COLUMN withdrawn_ip text;
CREATE TABLE earlier_consents (
  workspace_id text NOT NULL,
  list_id text NOT NULL,
  person_id text NOT NULL,
  consent jsonb NOT NULL,
  consent_text text NOT NULL,
  consent_ip text,
  granted_at timestamptz NOT NULL,
  source_label text,
  source jsonb,
  created_at timestamptz NOT NULL,
  withdrawn_at timestamptz,
  withdrawn_via text,
  withdrawn_ip text,
  replaced_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX earlier_consents_person ON earlier_consents (workspace_id, person_id);
`;

export class SubscriptionWithdrawal1767400000000 implements MigrationInterface {
  name = 'SubscriptionWithdrawal1767400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TABLE IF EXISTS earlier_consents; ALTER TABLE subscriptions DROP COLUMN withdrawn_via, ` +
        `DROP COLUMN withdrawn_ip; ALTER TABLE subscriptions RENAME COLUMN withdrawn_at TO unsubscribed_at;`,
    );
  }
}
