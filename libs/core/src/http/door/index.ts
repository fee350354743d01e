export * from './door-answers';
export * from './door-pipeline';
