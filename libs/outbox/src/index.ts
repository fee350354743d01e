export * from './outbox';
export * from './outbox-relay.service';
export * from './outbox.module';
export * from './outbox-worker.module';
export * from './restore-repair';
export { OutboxDataParticipant } from './person-data.participant';
