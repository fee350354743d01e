// docs/configuration.md#settings (APP_SECRET: signs automation addresses, derives per-workspace step
// secrets, encrypts stored webhook secrets); the step secret of docs/webhooks.md#automation-posts and
// the signed address of docs/rest.md#an-automations-start-address.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_INFO = 'lifeline:secret-box';

// hkdfSync costs more than the AES itself; a deployment has one APP_SECRET, so the cache stays tiny.
const keyCache = new Map<string, Buffer>();

function boxKey(appSecret: string): Buffer {
  let key = keyCache.get(appSecret);
  if (!key) {
    if (appSecret.length === 0) throw new Error('APP_SECRET is empty; set it before sealing secrets.');
    key = Buffer.from(hkdfSync('sha256', appSecret, Buffer.alloc(0), HKDF_INFO, 32));
    if (keyCache.size > 16) keyCache.clear();
    keyCache.set(appSecret, key);
  }
  return key;
}

/** Encrypt a secret for storage: 'v1.' + base64url(iv | tag | ciphertext), AES-256-GCM. */
export function sealSecret(appSecret: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', boxKey(appSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** Decrypt a sealed secret; throws when it was tampered with or sealed under another APP_SECRET. */
export function openSecret(appSecret: string, sealed: string): string {
  if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('Sealed secret has an unknown format; seal it again.');
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed secret is truncated; seal it again.');
  const decipher = createDecipheriv('aes-256-gcm', boxKey(appSecret), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Sealed secret failed its integrity check; it was altered or sealed under another APP_SECRET.');
  }
}

/**
 * The workspace's signing secret for automation http_request steps: derived, never stored, so it is
 * the same on every process and after every restart (an HMAC of step:{workspace_id}).
 */
export function deriveWorkspaceStepSecret(appSecret: string, workspaceId: string): string {
  const mac = createHmac('sha256', appSecret).update(`step:${workspaceId}`).digest('base64url');
  return `whsec_${mac}`;
}

/** The signature part of an automation's own address: base64url HMAC-SHA256 of automation:{id}. */
export function signAutomationAddress(appSecret: string, automationId: string): string {
  return createHmac('sha256', appSecret).update(`automation:${automationId}`).digest('base64url');
}

/** Constant-time check of an automation address signature. */
export function verifyAutomationAddress(appSecret: string, automationId: string, signature: string): boolean {
  const expected = Buffer.from(signAutomationAddress(appSecret, automationId), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Split the path segment {automation_id}.{signature}; null when it has no signature part. */
export function parseAutomationAddress(segment: string): { automationId: string; signature: string } | null {
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || dot === segment.length - 1) return null;
  return { automationId: segment.slice(0, dot), signature: segment.slice(dot + 1) };
}
