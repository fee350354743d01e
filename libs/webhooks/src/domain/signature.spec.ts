// interface.md "Delivery rules" (Headers) and "Authentication" rule 4.
import { generateEndpointSecret, signBody, signStandard, standardWebhookKey, verifySignature } from './signature';

const SECRET = 'whsec_0123456789abcdefABCDEF0123456789';
const BODY = '{"id":"dlv_1","type":"test"}';
// printf '{"id":"dlv_1","type":"test"}' | openssl dgst -sha256 -hmac 'whsec_0123456789abcdefABCDEF0123456789'
const BODY_HMAC = '7b6d9bab8bdc85e3e450b37f11cf3af8aaadba724978df806bd7dd96a71b3681';
const UNICODE_BODY = '{"name":"Zoë ✓"}';
// printf '{"name":"Zoë ✓"}' | openssl dgst -sha256 -hmac 'whsec_0123456789abcdefABCDEF0123456789'
const UNICODE_HMAC = '83244e1879aa85b19b5c07660d95d0ac2314cf5cb5f55ebac72181d7a61a0f32';

describe('X-Service-Signature', () => {
  it('is sha256= followed by the hex HMAC-SHA256 of the exact body under the secret', () => {
    expect(signBody(SECRET, BODY)).toBe(`sha256=${BODY_HMAC}`);
  });

  it('signs the UTF-8 bytes of the body, the same as the bytes sent', () => {
    expect(signBody(SECRET, UNICODE_BODY)).toBe(`sha256=${UNICODE_HMAC}`);
    expect(signBody(SECRET, Buffer.from(UNICODE_BODY, 'utf8'))).toBe(`sha256=${UNICODE_HMAC}`);
  });

  it('holds for a retry because the same bytes give the same signature', () => {
    expect(signBody(SECRET, BODY)).toBe(signBody(SECRET, Buffer.from(BODY)));
  });
});

describe('signature check recomputes the HMAC over the exact raw body', () => {
  it('accepts the right signature', () => {
    expect(verifySignature(SECRET, BODY, `sha256=${BODY_HMAC}`)).toBe(true);
    expect(verifySignature(SECRET, BODY, `sha256=${BODY_HMAC.toUpperCase()}`)).toBe(true);
  });

  it('refuses a body changed by one byte, even whitespace', () => {
    expect(verifySignature(SECRET, `${BODY} `, `sha256=${BODY_HMAC}`)).toBe(false);
    expect(verifySignature(SECRET, BODY.replace('test', 'tesT'), `sha256=${BODY_HMAC}`)).toBe(false);
  });

  it('refuses another secret', () => {
    expect(verifySignature(`${SECRET}x`, BODY, `sha256=${BODY_HMAC}`)).toBe(false);
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['no sha256= prefix', BODY_HMAC],
    ['another algorithm name', `sha1=${BODY_HMAC}`],
    ['a truncated digest', `sha256=${BODY_HMAC.slice(0, 63)}`],
    ['a digest with extra characters', `sha256=${BODY_HMAC}00`],
    ['non-hex characters', `sha256=${BODY_HMAC.slice(0, 62)}zz`],
  ])('refuses %s without throwing', (_what, header) => {
    expect(verifySignature(SECRET, BODY, header)).toBe(false);
  });
});

describe('endpoint secret', () => {
  it('is whsec_ followed by 32 base62 characters', () => {
    expect(generateEndpointSecret()).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });

  it('is different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateEndpointSecret()));
    expect(secrets.size).toBe(50);
  });
});

describe('Standard Webhooks signature (decisions.md section 6, Beyond the spec)', () => {
  // The standardwebhooks package is the reference: what it signs and verifies, we must match.
  const { Webhook } = jest.requireActual<typeof import('standardwebhooks')>('standardwebhooks');
  const secret = 'whsec_' + Buffer.alloc(24, 1).toString('base64');

  it('is v1, and the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" under the decoded secret', () => {
    expect(signStandard([secret], 'dlv_1', 1_700_000_000, BODY)).toBe(new Webhook(secret).sign('dlv_1', new Date(1_700_000_000_000), BODY));
    expect(signStandard([SECRET], 'dlv_1', 1_700_000_000, UNICODE_BODY)).toBe(new Webhook(SECRET).sign('dlv_1', new Date(1_700_000_000_000), UNICODE_BODY));
  });

  it('carries one signature per secret, space-separated, newest first', () => {
    const both = signStandard([SECRET, secret], 'dlv_1', 1_700_000_000, BODY).split(' ');
    expect(both).toEqual([signStandard([SECRET], 'dlv_1', 1_700_000_000, BODY), signStandard([secret], 'dlv_1', 1_700_000_000, BODY)]);
  });

  it('the key is the part after whsec_ decoded from base64 (base64url reads the same)', () => {
    expect(standardWebhookKey(secret)).toEqual(Buffer.alloc(24, 1));
    expect(standardWebhookKey('whsec_' + Buffer.alloc(32, 250).toString('base64url'))).toEqual(Buffer.alloc(32, 250));
  });
});
