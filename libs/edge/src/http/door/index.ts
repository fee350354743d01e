export * from './door-answers';
export * from './door-pipeline';
export * from './hot-door';
