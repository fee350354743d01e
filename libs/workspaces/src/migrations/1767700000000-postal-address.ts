import { MigrationInterface, QueryRunner } from 'typeorm';

// The workspace's postal address (docs/graphql.md#broadcasts): the footer of every broadcast carries it, as the
// laws on commercial email ask; a broadcast is refused until it is set. Up to 500 characters, lines kept.
const UP = `
ALTER TABLE workspaces ADD COLUMN postal_address text,
  ADD CONSTRAINT workspaces_postal_address CHECK (char_length(postal_address) BETWEEN 1 AND 500);
`;

export class PostalAddress1767700000000 implements MigrationInterface {
  name = 'PostalAddress1767700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE workspaces DROP CONSTRAINT IF EXISTS workspaces_postal_address,
        DROP COLUMN IF EXISTS postal_address`,
    );
  }
}
