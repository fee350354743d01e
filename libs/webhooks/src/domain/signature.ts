// interface.md "Delivery rules" (Headers: X-Service-Signature) and "Authentication" rule 4.
// The HMAC key is the secret exactly as shown at creation (its UTF-8 bytes, whsec_ prefix included).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '@app/core';

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
