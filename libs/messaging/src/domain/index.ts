export * from './message-input';
export * from './subject';
export * from './message-query';
export * from './markdown';
export * from './template';
export * from './email-door';
export * from './email-webhook';
