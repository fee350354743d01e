// The email queue's job: one message to send. Producer (api) and processor (worker) share it.
import { z } from 'zod';
import { declareJob } from '@app/platform';

const sendEmailJob = z.object({ workspaceId: z.string().min(1), messageId: z.string().min(1) });

/**
 * One stored message to send. Version 1 is the first: a payload without `v` (queued before versions) is
 * version 1. A version that changes the shape brings version 1 to it in `readOlder`.
 */
export const SEND_EMAIL = declareJob('email', 'send-email', { version: 1, schema: sendEmailJob });
export const SEND_EMAIL_JOB = SEND_EMAIL.name;

export type SendEmailJob = z.infer<typeof sendEmailJob>;

export interface SendEmailResult {
  providerId: string | null;
}

/** How long the api waits for the worker before answering without providerId (the email still leaves). */
export const SEND_WAIT_MS = 5_000;
export const SEND_ATTEMPTS = 3;
