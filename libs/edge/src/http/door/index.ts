export * from './door';
export * from './hot-door';
