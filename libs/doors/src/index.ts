export * from './domain';
export * from './door-connections.repository';
export * from './doors.service';
export * from './door-intake.service';
export * from './doors.module';
export * from './doors-api.module';
export * from './doors-worker.module';
