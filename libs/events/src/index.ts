export * from './domain';
export * from './timeline.repository';
export * from './heartbeat.service';
export * from './ingest/ingest.service';
export * from './ingest/ingest-unit';
export * from './events.module';
export * from './events-api.module';
export { personView } from './graphql/people.resolver';
