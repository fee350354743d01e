export * from './address';
export * from './trigger';
export * from './steps';
export * from './start-body';
export * from './run-log';
