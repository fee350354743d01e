// GitHub's webhook signature: X-Hub-Signature-256 "sha256=" + hex HMAC-SHA256, or the older
// X-Hub-Signature "sha1=" + hex HMAC-SHA1, of the exact body; compared in constant time. The strongest
// header sent is the one checked. X-GitHub-Delivery names the delivery, the same on a redelivery.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { headerValue, InboundPost, parseJson, Verified } from './inbound-post';

const SCHEMES = [
  { header: 'x-hub-signature-256', algorithm: 'sha256' },
  { header: 'x-hub-signature', algorithm: 'sha1' },
] as const;

export function hubSignature(algorithm: 'sha1' | 'sha256', secret: string, raw: Buffer): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(raw).digest('hex')}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A form-encoded delivery (content type application/x-www-form-urlencoded) carries the JSON in payload=. */
function payloadOf(post: InboundPost): unknown {
  const type = headerValue(post.headers, 'content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(post.raw.toString('utf8')).get('payload');
    return form === null ? undefined : parseJson(Buffer.from(form, 'utf8'));
  }
  return parseJson(post.raw);
}

export function verifyHubSignature(post: InboundPost, secret: string): Verified | null {
  const scheme = SCHEMES.find((s) => headerValue(post.headers, s.header));
  if (!scheme) return null;
  const given = headerValue(post.headers, scheme.header)!.trim();
  if (!sameText(given, hubSignature(scheme.algorithm, secret, post.raw))) return null;
  return { payload: payloadOf(post), deliveryId: headerValue(post.headers, 'x-github-delivery') };
}
