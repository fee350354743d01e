import { MigrationInterface, QueryRunner } from 'typeorm';

// An identity's value is matched by its bytes' ASCII case (COLLATE "C"), the fragment
// lower-cased by the api first (docs/decisions.md#people-search). Under the database's C.UTF-8 ILIKE
// folds every character of every candidate through the locale, which was two thirds of reading 55,556
// matches. The trigram index keeps its name and is made again on the expression the search names.
const UP = `
DROP INDEX IF EXISTS identities_value_trgm;
CREATE INDEX identities_value_trgm ON identities USING gin ((value COLLATE "C") gin_trgm_ops);
`;

export class IdentitiesSearchC1767150000000 implements MigrationInterface {
  name = 'IdentitiesSearchC1767150000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX IF EXISTS identities_value_trgm; CREATE INDEX identities_value_trgm ON identities USING gin ` +
        `(value gin_trgm_ops);`,
    );
  }
}
