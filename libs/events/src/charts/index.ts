export * from './chart-rule';
export * from './charts.service';
export * from './charts.repository';
