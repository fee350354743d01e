export * from './domain';
export * from './providers';
export * from './messages.repository';
export * from './templates.repository';
export * from './messaging.module';
export * from './messaging-api.module';
export * from './messaging-worker.module';
export * from './messages.service';
