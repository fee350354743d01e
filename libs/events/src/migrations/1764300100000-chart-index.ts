import { MigrationInterface, QueryRunner } from 'typeorm';

// Charts (docs/graphql.md#activity-and-charts): one index covers every chart statement, so a chart reads only the
// index (type and time range, then person, value and expiry from the leaf). It also serves whatever
// events_type served, so that one goes.
const UP = `
CREATE INDEX events_chart ON events (workspace_id, type, occurred_at) INCLUDE (person_id, value, expires_at);
DROP INDEX IF EXISTS events_type;
`;
const DOWN = `
CREATE INDEX IF NOT EXISTS events_type ON events (workspace_id, type, occurred_at DESC);
DROP INDEX IF EXISTS events_chart;
`;

export class ChartIndex1764300100000 implements MigrationInterface {
  name = 'ChartIndex1764300100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
