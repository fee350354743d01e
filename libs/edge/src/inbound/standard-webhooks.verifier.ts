// Standard Webhooks (https://www.standardwebhooks.com): webhook-id, webhook-timestamp and
// webhook-signature over "{id}.{timestamp}.{body}", five minutes of tolerance, checked by the
// `standardwebhooks` package. Svix (Clerk, Resend) sends the same three headers named svix-*.
import { Webhook } from 'standardwebhooks';
import { headerValue, InboundHeaders, InboundPost, Verified } from './inbound-post';

const PARTS = ['id', 'timestamp', 'signature'] as const;

/** The three headers under their webhook-* names, whichever spelling came; null when one is missing. */
export function standardWebhookHeaders(headers: InboundHeaders): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of PARTS) {
    const value = headerValue(headers, `webhook-${part}`) ?? headerValue(headers, `svix-${part}`);
    if (!value) return null;
    out[`webhook-${part}`] = value;
  }
  return out;
}

/** Is this a secret the package can sign with (whsec_ + base64)? Checked when a door is connected. */
export function isStandardWebhookSecret(secret: string): boolean {
  try {
    new Webhook(secret);
    return /^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret);
  } catch {
    return false;
  }
}

export function verifyStandardWebhook(post: InboundPost, secret: string): Verified | null {
  const headers = standardWebhookHeaders(post.headers);
  if (!headers) return null;
  try {
    const payload = new Webhook(secret).verify(post.raw.toString('utf8'), headers);
    return { payload, deliveryId: headers['webhook-id'] };
  } catch {
    return null;
  }
}
