import { MigrationInterface, QueryRunner } from 'typeorm';

// A value posted as properties.value, with no top-level value, is the event's value
// (docs/decisions.md#graphql-admin-api):
// ingest stores it in events.value since, and this writes it there for the rows recorded before, so charts sum
// both alike. The rollups' update trigger moves their sums in the same statement.
export class ValueFromProperties1767340000000 implements MigrationInterface {
  name = 'ValueFromProperties1767340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE events SET value = (properties->>'value')::numeric
        WHERE value IS NULL AND jsonb_typeof(properties->'value') = 'number'`,
    );
  }

  async down(): Promise<void> {
    // The rows written then cannot be told from those posted with both: their value stays.
  }
}
