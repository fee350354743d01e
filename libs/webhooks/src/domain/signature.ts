// interface.md "Delivery rules" (Headers: X-Service-Signature) and "Authentication" rule 4.
// The HMAC key is the secret exactly as shown at creation (its UTF-8 bytes, whsec_ prefix included).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '@app/platform';

export const SIGNATURE_PREFIX = 'sha256=';
export const ENDPOINT_SECRET_PREFIX = 'whsec_';

const SIGNATURE_HEADER_VALUE = /^sha256=([0-9a-f]{64})$/i;

/** The X-Service-Signature value: sha256= and the hex HMAC-SHA256 of the exact body bytes. */
export function signBody(secret: string, body: string | Buffer): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(body).digest('hex');
}

/** Recompute the HMAC over the exact raw body and compare in constant time. */
export function verifySignature(secret: string, body: string | Buffer, header: string | null | undefined): boolean {
  const match = SIGNATURE_HEADER_VALUE.exec((header ?? '').trim());
  if (!match) return false;
  const given = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new outgoing webhook secret, shown once when the address is added. */
export function generateEndpointSecret(): string {
  return ENDPOINT_SECRET_PREFIX + randomBase62(32);
}

// Standard Webhooks (decisions.md section 6, "Beyond the spec"): webhook-signature is
// v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">, keyed with the secret after whsec_ decoded
// from base64, as the standardwebhooks package does. Node's decoder also takes base64url, so a
// secret written in either alphabet gives the same key.
const standardKeys = new Map<string, Buffer>();

/** The HMAC key Standard Webhooks derives from a whsec_ secret. */
export function standardWebhookKey(secret: string): Buffer {
  let key = standardKeys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith(ENDPOINT_SECRET_PREFIX) ? secret.slice(ENDPOINT_SECRET_PREFIX.length) : secret, 'base64');
    if (standardKeys.size >= 10_000) standardKeys.clear();
    standardKeys.set(secret, key);
  }
  return key;
}

/**
 * The webhook-signature value: one v1 signature per secret, space-separated (a rotated secret and
 * the one it replaces both sign during the overlap, newest first).
 */
export function signStandard(secrets: readonly string[], id: string, timestampSeconds: number, body: string | Buffer): string {
  // The HMAC takes the two parts in turn: the same bytes as their concatenation, without copying the body.
  const prefix = `${id}.${timestampSeconds}.`;
  const sign = (secret: string) => 'v1,' + createHmac('sha256', standardWebhookKey(secret)).update(prefix).update(body).digest('base64');
  return secrets.length === 1 ? sign(secrets[0]) : secrets.map(sign).join(' ');
}
