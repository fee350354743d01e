import { createHash } from 'node:crypto';
import {
  generatePublicKey,
  generateSecretKey,
  hashSecretKey,
  isPublicKeyShape,
  isSecretKeyShape,
} from './workspaces.service';

describe('keys (docs/security.md#keys-secrets-and-tenants)', () => {
  it('public keys are wk_ and 24 base62 characters', () => {
    const key = generatePublicKey();
    expect(key).toMatch(/^wk_[0-9A-Za-z]{24}$/);
    expect(isPublicKeyShape(key)).toBe(true);
  });

  it('secret keys are sk_live_ and 32 base62 characters, never twice the same', () => {
    const keys = new Set(Array.from({ length: 200 }, generateSecretKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(isSecretKeyShape(key)).toBe(true);
  });

  it('secret keys are stored as their SHA-256', () => {
    expect(hashSecretKey('sk_live_abc')).toBe(createHash('sha256').update('sk_live_abc').digest('hex'));
  });
});
