import { MigrationInterface, QueryRunner } from 'typeorm';

// An identity carries its person's created_at, so a search page orders the matching
// identities newest person first without reading each person (docs/decisions.md#people-search). The
// ingest and merges write it (people.repository.ts). Existing rows are filled here, in one statement.
const UP = `
ALTER TABLE identities ADD COLUMN person_created_at timestamptz;
UPDATE identities i SET person_created_at = p.created_at FROM people p WHERE p.workspace_id = i.workspace_id
  AND p.id = i.person_id;
ALTER TABLE identities ALTER COLUMN person_created_at SET NOT NULL;
`;

export class IdentitiesPersonCreated1767100000000 implements MigrationInterface {
  name = 'IdentitiesPersonCreated1767100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE identities DROP COLUMN IF EXISTS person_created_at;`);
  }
}
