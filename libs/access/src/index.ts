export * from './access-api.module';
export * from './oauth/consent-request';
export * from './pages';
