export * from './door-answers';
export * from './door';
export * from './open-door';
export * from './hot-door';
