export * from './chart-rule';
export * from './chart-statement';
export * from './charts.service';
export * from './charts.repository';
export * from './chart-rollup.statement';
export * from './chart-people.statement';
export * from './people-rollup';
