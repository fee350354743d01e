export * from './domain';
export * from './people.repository';
export * from './people-read.repository';
export * from './people.module';
export * from './merge/merge-participants';
