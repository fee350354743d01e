export * from './catalogue';
export * from './commands';
export * from './event-input';
export { parseInstant } from './input-fields';
export * from './public-door';
