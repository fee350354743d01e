import { MigrationInterface, QueryRunner } from 'typeorm';
import { ROLLUP_DOWN, ROLLUP_UP } from '../charts/rollup-fold.sql';

// issue 32 item 2 (docs/decisions.md "Charts from rollups"): counts and sums per hour and day, people
// per day, week and month, folded by the minute sweep and moved by every change to a folded row; then a
// first fold of every row already there. A database that ran the reverted 1766900000000 loses its
// objects first (its person sets are not kept any more). While events is being converted to months
// (EventsByMonth), the triggers go on the table that serves writes (the old one); finishConversion
// makes them again on the partitioned table when it takes the name.
export class ChartRollups1767000000000 implements MigrationInterface {
  name = 'ChartRollups1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_DOWN + ROLLUP_UP);
    await queryRunner.query('SELECT events_rollup_rebuild()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ROLLUP_DOWN);
  }
}
