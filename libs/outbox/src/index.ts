export * from './outbox';
export * from './outbox-relay.service';
export * from './listeners';
export * from './outbox.module';
export * from './outbox-worker.module';
