export * from './door';
export * from './hot-door';
export * from './reference';
