export * from './domain';
export * from './door-connections.repository';
export * from './doors.service';
export * from './door-intake.service';
export * from './integrations.module';
export * from './integrations-api.module';
export * from './integrations-worker.module';
