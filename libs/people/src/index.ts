export * from './domain';
export * from './people.repository';
export * from './people-read.repository';
export * from './people.module';
export * from './people-query.service';
export * from './lists.service';
export * from './merge/merge-participants';
