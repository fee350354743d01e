export * from './catalogue';
export * from './commands';
export * from './event-input';
export * from './public-door';
export * from './live-feed';
