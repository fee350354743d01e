export const EMAIL_PROVIDER = Symbol('EMAIL_PROVIDER');
