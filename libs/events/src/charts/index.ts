export * from './chart-rule';
export * from './chart-statement';
export * from './charts.service';
export * from './charts.repository';
export * from './chart-rollup.statement';
export * from './chart-rollup-people.statement';
export { ROLLUP_MARK_SQL } from './rollup-read.sql';
export type { RollupMark } from './rollup-read.sql';
