import { MigrationInterface, QueryRunner } from 'typeorm';

// Messaging: who may no longer be emailed (docs/decisions.md#opt-out-and-undeliverable). One row a happening: an
// opt-out (one-click, a complaint) or an address a permanent bounce marked undeliverable. Rows are not unique per
// person: a merge moves both people's rows to the survivor, and the rule reads the latest.
const UP = `
CREATE TABLE email_standings (
  workspace_id text NOT NULL,
  id text NOT NULL,
  person_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('opted_out', 'undeliverable')),
  at timestamptz NOT NULL,
  via text CHECK (via IN ('one_click', 'complaint')),
  address text,
  message_id text,
  PRIMARY KEY (workspace_id, id),
  CHECK ((kind = 'opted_out') = (via IS NOT NULL)),
  CHECK ((kind = 'undeliverable') = (address IS NOT NULL))
);
CREATE INDEX email_standings_person ON email_standings (workspace_id, person_id);
`;

export class EmailStanding1767500000000 implements MigrationInterface {
  name = 'EmailStanding1767500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS email_standings;`);
  }
}
