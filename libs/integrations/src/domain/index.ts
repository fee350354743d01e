export * from './door-items';
export * from './money';
export * from './door-kinds';
export * from './payment';
export * from './auth-a';
export * from './auth-b';
export * from './hosting';
