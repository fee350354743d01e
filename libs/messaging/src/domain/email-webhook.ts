// interface.md "Inbound doors" (POST /api/webhooks/email: a Standard Webhooks signature) and decisions.md
// sections 1 (EMAIL_WEBHOOK_SECRET) and 8: proof that a post at the email door came from the provider.
import { Refusal } from '@app/core';
import { Webhook } from 'standardwebhooks';

export type IncomingHeaders = Record<string, string | string[] | undefined>;

export interface VerifiedEmailWebhook {
  /** The parsed JSON body. */
  payload: unknown;
  /** The delivery's id (webhook-id): the same on every retry, so it makes the door idempotent. */
  webhookId: string;
}

const PARTS = ['id', 'timestamp', 'signature'] as const;

function headerValue(headers: IncomingHeaders, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Standard Webhooks names its headers webhook-*; Resend delivers through Svix, which names the same three svix-*. */
export function standardWebhookHeaders(headers: IncomingHeaders): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of PARTS) {
    const value = headerValue(headers, `webhook-${part}`) ?? headerValue(headers, `svix-${part}`);
    if (!value) return null;
    out[`webhook-${part}`] = value;
  }
  return out;
}

/**
 * The exact raw body and its headers -> the parsed payload and webhook-id, or invalid_signature
 * (also for a timestamp more than five minutes from now, the Standard Webhooks tolerance).
 */
export function verifyEmailWebhook(secret: string, rawBody: string, headers: IncomingHeaders): VerifiedEmailWebhook | Refusal {
  const refusal = new Refusal('invalid_signature', 'Sign the post with the email door\'s whsec_ secret and send the body unchanged with its webhook-id, webhook-timestamp and webhook-signature headers.');
  const standard = standardWebhookHeaders(headers);
  if (!standard) return refusal;
  try {
    const payload = new Webhook(secret).verify(rawBody, standard);
    return { payload, webhookId: standard['webhook-id'] };
  } catch {
    return refusal;
  }
}
