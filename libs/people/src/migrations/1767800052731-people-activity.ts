import { MigrationInterface, QueryRunner } from 'typeorm';

// A person's last seen and revenue, kept on their row by the ingest, and an index for each order the
// people list reads (docs/graphql.md#sorting-people). People already there start with the latest time their
// row was written as last seen and a revenue of 0 (docs/decisions.md#last-seen-and-revenue-on-the-person).
// A row written without it (a restore, a bench writing people with SQL) is last seen when written.
// The stage's rank is the ladder's order (people-sort.ts writes the same expression).
const UP = `
ALTER TABLE people ADD COLUMN last_seen_at timestamptz, ADD COLUMN revenue numeric NOT NULL DEFAULT 0;
UPDATE people SET last_seen_at = greatest(created_at, updated_at);
ALTER TABLE people ALTER COLUMN last_seen_at SET NOT NULL, ALTER COLUMN last_seen_at SET DEFAULT now();
CREATE INDEX people_last_seen ON people (workspace_id, last_seen_at DESC, id DESC) WHERE merged_into IS NULL;
CREATE INDEX people_revenue ON people (workspace_id, revenue DESC, id DESC) WHERE merged_into IS NULL;
CREATE INDEX people_stage_rank ON people (workspace_id, (CASE stage WHEN 'downloader' THEN 1 WHEN 'activated' THEN 2
  WHEN 'account' THEN 3 WHEN 'trial' THEN 4 WHEN 'purchaser' THEN 5 WHEN 'repeat' THEN 6 WHEN 'churned' THEN 7
  ELSE 0 END) DESC, id DESC) WHERE merged_into IS NULL;
CREATE INDEX people_engaged ON people (workspace_id, (coalesce(engaged_at, timestamptz 'epoch')) DESC, id DESC)
  WHERE merged_into IS NULL;
`;

export class PeopleActivity1767800052731 implements MigrationInterface {
  name = 'PeopleActivity1767800052731';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX IF EXISTS people_last_seen, people_revenue, people_stage_rank, people_engaged;
       ALTER TABLE people DROP COLUMN IF EXISTS last_seen_at, DROP COLUMN IF EXISTS revenue;`,
    );
  }
}
