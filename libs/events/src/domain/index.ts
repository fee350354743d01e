export * from './catalogue';
export * from './commands';
export * from './event-input';
export * from './public-door';
export * from './segment-call';
export * from './live-feed';
export * from './person-sketch';
