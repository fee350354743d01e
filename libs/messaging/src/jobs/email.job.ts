// The email queue's job: one message to send. Producer (api) and processor (worker) share it.
import { declareJob } from '@app/platform';

/** One stored message to send. */
export const SEND_EMAIL = declareJob('email', 'send-email');
export const SEND_EMAIL_JOB = SEND_EMAIL.name;

export interface SendEmailJob {
  workspaceId: string;
  messageId: string;
}

export interface SendEmailResult {
  providerId: string | null;
}

/** How long the api waits for the worker before answering without providerId (the email still leaves). */
export const SEND_WAIT_MS = 5_000;
export const SEND_ATTEMPTS = 3;
