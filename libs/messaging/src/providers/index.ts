export * from './email-provider';
export * from './smtp.provider';
export * from './resend.provider';
