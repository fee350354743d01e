export * from './inbound-post';
export * from './standard-webhooks.verifier';
export * from './stripe.verifier';
export * from './github-hmac.verifier';
export * from './jwt-jwks.verifier';
export * from './verifiers';
export * from './door-receipts.repository';
