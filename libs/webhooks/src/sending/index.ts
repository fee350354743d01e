export * from './safe-post';
export * from './safe-agent';
