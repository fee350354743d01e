// decisions.md section 2: wk_ + 24 base62 public keys; sk_live_ + 32 secret keys stored as SHA-256.
import { createHash } from 'node:crypto';
import { randomBase62 } from '@app/platform/plain';

export const PUBLIC_KEY_PREFIX = 'wk_';
export const SECRET_KEY_PREFIX = 'sk_live_';

export function generatePublicKey(): string {
  return PUBLIC_KEY_PREFIX + randomBase62(24);
}

export function generateSecretKey(): string {
  return SECRET_KEY_PREFIX + randomBase62(32);
}

export function hashSecretKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function isPublicKeyShape(key: string): boolean {
  return /^wk_[0-9A-Za-z]{24}$/.test(key);
}

export function isSecretKeyShape(key: string): boolean {
  return /^sk_live_[0-9A-Za-z]{32}$/.test(key);
}

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
