import { MigrationInterface, QueryRunner } from 'typeorm';

// Search by a fragment of a name or an identity reads candidates from trigram indexes instead of
// scanning the workspace (docs/decisions.md#people-search). pg_trgm is in PostgreSQL's contrib and
// trusted since PostgreSQL 13, so the database's owner may create it; embedded PGlite loads it too.
const UP = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX people_name_trgm ON people USING gin (name gin_trgm_ops);
CREATE INDEX identities_value_trgm ON identities USING gin (value gin_trgm_ops);
`;

export class PeopleSearch1766800000000 implements MigrationInterface {
  name = 'PeopleSearch1766800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The extension stays: another schema object may use it by now.
    await queryRunner.query(`DROP INDEX IF EXISTS identities_value_trgm; DROP INDEX IF EXISTS people_name_trgm;`);
  }
}
