// APP_SECRET (docs/configuration.md#settings), the step secret (docs/webhooks.md#automation-posts) and the
// automation address signature (docs/rest.md#an-automations-start-address).
import { createDecipheriv } from 'node:crypto';
import {
  deriveWorkspaceStepSecret,
  openSecret,
  parseAutomationAddress,
  sealSecret,
  signAutomationAddress,
  verifyAutomationAddress,
} from './secret-box';

const APP_SECRET = 'app-secret-for-tests';
// openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt key:app-secret-for-tests -kdfopt info:lifeline:secret-box HKDF
const HKDF_KEY_HEX = '829F651F2A4895AE24574D87D96A7631DDE271AE530786F5D8145A97B73A124F';

describe('secret box: stored webhook secrets are encrypted under APP_SECRET', () => {
  it('round-trips a secret', () => {
    const sealed = sealSecret(APP_SECRET, 'whsec_abc123');
    expect(openSecret(APP_SECRET, sealed)).toBe('whsec_abc123');
  });

  it("writes 'v1.' + base64url(iv | tag | ciphertext) and never the plain secret", () => {
    const sealed = sealSecret(APP_SECRET, 'whsec_abc123');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('abc123');
    expect(Buffer.from(sealed.slice(3), 'base64url')).toHaveLength(12 + 16 + 'whsec_abc123'.length);
  });

  it('uses AES-256-GCM under the HKDF key with info lifeline:secret-box (checked against openssl)', () => {
    const raw = Buffer.from(sealSecret(APP_SECRET, 'Zoë ✓ secret').slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(HKDF_KEY_HEX, 'hex'), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    expect(plain).toBe('Zoë ✓ secret');
  });

  it('seals the same secret differently each time (fresh iv)', () => {
    expect(sealSecret(APP_SECRET, 'same')).not.toBe(sealSecret(APP_SECRET, 'same'));
  });

  it('throws when one byte of the sealed value is changed', () => {
    const raw = Buffer.from(sealSecret(APP_SECRET, 'whsec_abc123').slice(3), 'base64url');
    for (const index of [0, 12, 28, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[index] ^= 0x01;
      expect(() => openSecret(APP_SECRET, `v1.${tampered.toString('base64url')}`)).toThrow(/integrity/);
    }
  });

  it('throws when opened under another APP_SECRET', () => {
    expect(() => openSecret('another-secret', sealSecret(APP_SECRET, 'x'))).toThrow(/integrity/);
  });

  it('throws on an unknown format or a truncated value', () => {
    expect(() => openSecret(APP_SECRET, 'whsec_plain')).toThrow(/unknown format/);
    expect(() => openSecret(APP_SECRET, 'v1.AAAA')).toThrow(/truncated/);
  });
});

describe('workspace step secret is derived rather than stored', () => {
  it('is the HMAC of the workspace id under APP_SECRET (checked against openssl)', () => {
    // printf 'step:wsp_01' | openssl dgst -sha256 -hmac 'app-secret-for-tests' -binary | base64 | tr '+/' '-_' | tr -d '='
    expect(deriveWorkspaceStepSecret(APP_SECRET, 'wsp_01')).toBe('whsec_yMfMOItDRdaDR6W920M3dPiKq77hLt8MW1cXUQpeJ0Q');
  });

  it('is the same every time for one workspace and differs between workspaces', () => {
    expect(deriveWorkspaceStepSecret(APP_SECRET, 'wsp_01')).toBe(deriveWorkspaceStepSecret(APP_SECRET, 'wsp_01'));
    expect(deriveWorkspaceStepSecret(APP_SECRET, 'wsp_02')).not.toBe(deriveWorkspaceStepSecret(APP_SECRET, 'wsp_01'));
  });

  it('changes with APP_SECRET', () => {
    expect(deriveWorkspaceStepSecret('other', 'wsp_01')).not.toBe(deriveWorkspaceStepSecret(APP_SECRET, 'wsp_01'));
  });
});

describe('automation address signature: base64url HMAC-SHA256 of automation:{id} under APP_SECRET', () => {
  // printf 'automation:aut_01' | openssl dgst -sha256 -hmac 'app-secret-for-tests' -binary | base64 | tr '+/' '-_' | tr -d '='
  const SIGNATURE = '4E6Y6p0BmGDpuHnJslU3lVoBtOVPd05k7-nhAZHxWoo';

  it('matches the value computed with openssl', () => {
    expect(signAutomationAddress(APP_SECRET, 'aut_01')).toBe(SIGNATURE);
  });

  it('verifies only that automation under that APP_SECRET', () => {
    expect(verifyAutomationAddress(APP_SECRET, 'aut_01', SIGNATURE)).toBe(true);
    expect(verifyAutomationAddress(APP_SECRET, 'aut_02', SIGNATURE)).toBe(false);
    expect(verifyAutomationAddress('other', 'aut_01', SIGNATURE)).toBe(false);
  });

  it('refuses a signature that is altered, shortened or empty', () => {
    expect(verifyAutomationAddress(APP_SECRET, 'aut_01', `${SIGNATURE.slice(0, -1)}p`)).toBe(false);
    expect(verifyAutomationAddress(APP_SECRET, 'aut_01', SIGNATURE.slice(0, 20))).toBe(false);
    expect(verifyAutomationAddress(APP_SECRET, 'aut_01', '')).toBe(false);
  });

  it('reads the address segment {automation_id}.{signature}', () => {
    expect(parseAutomationAddress(`aut_01.${SIGNATURE}`)).toEqual({ automationId: 'aut_01', signature: SIGNATURE });
    expect(parseAutomationAddress('aut_01')).toBeNull();
    expect(parseAutomationAddress('aut_01.')).toBeNull();
    expect(parseAutomationAddress(`.${SIGNATURE}`)).toBeNull();
  });
});
