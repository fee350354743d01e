export * from './stage-ladder';
export * from './identity';
export * from './first-touch';
export * from './suppression';
export * from './consent';
export * from './activity';
