import { MigrationInterface, QueryRunner } from 'typeorm';

// Charts (docs/graphql.md#activity-and-charts; docs/decisions.md#charts-over-a-million-events): statistics on
// each chart bucket expression, so the planner knows a range of rows holds a few hundred buckets, not
// as many as it has rows, and aggregates it in parallel. Written by ANALYZE only: nothing on ingest.
// The expressions must match libs/events/src/charts/chart-statement.ts (rangeSql) exactly.
const INTERVALS = ['hour', 'day', 'week', 'month'];
const UP =
  INTERVALS.map(
    (i) => `CREATE STATISTICS events_chart_${i} ON (date_trunc('${i}', occurred_at AT TIME ZONE 'UTC')) FROM events;`,
  ).join('\n') + '\nANALYZE events;';
const DOWN = INTERVALS.map((i) => `DROP STATISTICS IF EXISTS events_chart_${i};`).join('\n');

export class ChartBucketStatistics1765000000000 implements MigrationInterface {
  name = 'ChartBucketStatistics1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
