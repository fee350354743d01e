export * from './safe-post';
export * from './address-resolver';
