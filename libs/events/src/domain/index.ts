export * from './catalogue';
export * from './event-input';
