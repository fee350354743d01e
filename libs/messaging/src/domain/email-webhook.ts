// docs/rest.md#third-party-doors (POST /api/webhooks/email: a Standard Webhooks signature under
// EMAIL_WEBHOOK_SECRET, docs/configuration.md#settings): proof that a post at the email door came from the provider,
// through edge's Standard Webhooks verifier (the same one the auth_a door uses).
import { InboundHeaders, verifyStandardWebhook } from '@app/edge';
import { Refusal } from '@app/platform';

export type IncomingHeaders = InboundHeaders;

export interface VerifiedEmailWebhook {
  /** The parsed JSON body. */
  payload: unknown;
  /** The delivery's id (webhook-id): the same on every retry, so it makes the door idempotent. */
  webhookId: string;
}

const FIX =
  "Sign the post with the email door's whsec_ secret and send the body unchanged with its webhook-id, " +
  'webhook-timestamp and webhook-signature headers.';

/**
 * The exact raw body and its headers -> the parsed payload and webhook-id, or invalid_signature
 * (also for a timestamp more than five minutes from now, the Standard Webhooks tolerance).
 */
export function verifyEmailWebhook(
  secret: string,
  rawBody: string | Buffer,
  headers: IncomingHeaders,
): VerifiedEmailWebhook | Refusal {
  const raw = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
  const verified = verifyStandardWebhook({ raw, headers }, secret);
  if (!verified?.deliveryId) return new Refusal('invalid_signature', FIX);
  return { payload: verified.payload, webhookId: verified.deliveryId };
}
