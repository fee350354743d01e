export * from './safe-post';
export * from './safe-agent';
export * from './address-resolver';
