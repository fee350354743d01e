import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// A ULID (https://github.com/ulid/spec): 48 bits of milliseconds and 80 random bits in Crockford base32,
// monotonic within a millisecond (the random part counts up), as the `ulid` package's monotonicFactory
// makes them. Written here because that package asks crypto for one byte at a time (16 calls an id);
// this one reads random bytes from a pooled buffer: a fifth of the cost on the ingest path.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;
let lastTime = -1;
const lastRandom = new Uint8Array(16);

function nextRandom(): void {
  if (offset + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  for (let i = 0; i < 16; i++) lastRandom[i] = pool[offset + i] & 31;
  offset += 16;
}

/** Counts the random part up by one (base 32, last digit first); an overflow takes a fresh random part. */
function increment(): void {
  for (let i = 15; i >= 0; i--) {
    if (lastRandom[i] < 31) {
      lastRandom[i]++;
      return;
    }
    lastRandom[i] = 0;
  }
  nextRandom();
}

export function ulid(now = Date.now()): string {
  if (now <= lastTime) increment();
  else {
    lastTime = now;
    nextRandom();
  }
  let time = '';
  let t = lastTime;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[lastRandom[i]];
  return time + random;
}

/** Time-ordered record id with a readable prefix, e.g. per_01J…, evt_01J…, dlv_01J…. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 string (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Whether two secrets are equal, in time that tells nothing of where they differ (nor of their lengths). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/**
 * A body signed for one use: `{base64url body}.{HMAC-SHA256 under "{purpose}:{secret}"}`, so a token made for one
 * purpose (a consent decision, a preference page, a confirmation) is never taken for another's.
 */
export function signToken(purpose: string, body: string, secret: string): string {
  const encoded = Buffer.from(body, 'utf8').toString('base64url');
  return `${encoded}.${tokenMac(purpose, encoded, secret)}`;
}

/** The body a token was signed with for this purpose, or null when it was not signed here (tampered, cut, too long). */
export function openToken(purpose: string, token: string, secret: string, maxLength = 4096): string | null {
  if (token.length > maxLength) return null;
  const [encoded, mac, extra] = token.split('.');
  if (!encoded || !mac || extra !== undefined || !sameSecret(mac, tokenMac(purpose, encoded, secret))) return null;
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

const tokenMac = (purpose: string, encoded: string, secret: string) =>
  createHmac('sha256', `${purpose}:${secret}`).update(encoded).digest('base64url');
