import { MigrationInterface, QueryRunner } from 'typeorm';
import { rollupEventTriggers, ROLLUP_DOWN, ROLLUP_UP } from '../charts/rollup.sql';

// issue 32 item 2 (docs/decisions.md "Charts from rollups"): counts, sums and person sets per hour, day,
// week and month, folded by the minute sweep and moved by every change to a folded row; then a first
// fold of every row already there. While events is being converted to months (EventsByMonth), the
// triggers go on the table that serves writes (the old one); finishConversion makes them again on the
// partitioned table when it takes the name.
export class ChartRollups1766900000000 implements MigrationInterface {
  name = 'ChartRollups1766900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_UP + rollupEventTriggers('events'));
    await queryRunner.query('SELECT events_rollup_rebuild()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_DOWN);
  }
}
