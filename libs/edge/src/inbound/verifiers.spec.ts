import { createHmac, generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, exportJWK, SignJWT } from 'jose';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { Refusal } from '@app/platform';
import { InboundPost } from './inbound-post';
import { verifyInbound } from './verifiers';

const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'thing.happened', data: { a: 1 } }));
const alter = (raw: Buffer) => Buffer.from(raw.toString().replace('"a":1', '"a":2'));
const expectRefused = (r: unknown) => {
  expect(r).toBeInstanceOf(Refusal);
  expect((r as Refusal).code).toBe('invalid_signature');
  expect((r as Refusal).status).toBe(401);
};

describe('standard_webhooks: webhook-* or svix-* headers, five minutes of tolerance', () => {
  const secret = `whsec_${Buffer.from('a-test-secret-of-32-bytes-length!').toString('base64')}`;
  const post = (raw: Buffer, at = new Date(), key = secret, prefix = 'webhook'): InboundPost => ({
    raw,
    headers: {
      [`${prefix}-id`]: 'msg_1',
      [`${prefix}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${prefix}-signature`]: new Webhook(key).sign('msg_1', at, raw.toString()),
    },
  });
  it('accepts a good signature under either spelling and names the delivery by its id', async () => {
    expect(await verifyInbound('standard_webhooks', post(body), { secret })).toEqual({
      payload: JSON.parse(body.toString()),
      deliveryId: 'msg_1',
    });
    expect(await verifyInbound('standard_webhooks', post(body, new Date(), secret, 'svix'), { secret })).toMatchObject({
      deliveryId: 'msg_1',
    });
  });
  it('refuses another secret, an altered body and a stale timestamp', async () => {
    expectRefused(
      await verifyInbound(
        'standard_webhooks',
        post(body, new Date(), `whsec_${Buffer.from('another-secret-of-32-bytes-long!!').toString('base64')}`),
        { secret },
      ),
    );
    expectRefused(await verifyInbound('standard_webhooks', { ...post(body), raw: alter(body) }, { secret }));
    expectRefused(await verifyInbound('standard_webhooks', post(body, new Date(Date.now() - 6 * 60_000)), { secret }));
  });
});

describe('stripe: Stripe-Signature over the exact bytes, 300 seconds of tolerance', () => {
  const secret = 'whsec_test_stripe_secret';
  const post = (raw: Buffer, timestamp = Math.floor(Date.now() / 1000), key = secret): InboundPost => ({
    raw,
    headers: {
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: raw.toString(), secret: key, timestamp }),
    },
  });
  it('accepts a good signature; the event id names the delivery', async () => {
    expect(await verifyInbound('stripe', post(body), { secret })).toMatchObject({
      deliveryId: 'evt_1',
      payload: { type: 'thing.happened' },
    });
  });
  it('refuses another secret, an altered body, a stale timestamp and a missing header', async () => {
    expectRefused(await verifyInbound('stripe', post(body, undefined, 'whsec_other'), { secret }));
    expectRefused(await verifyInbound('stripe', { ...post(body), raw: alter(body) }, { secret }));
    expectRefused(await verifyInbound('stripe', post(body, Math.floor(Date.now() / 1000) - 301), { secret }));
    expectRefused(await verifyInbound('stripe', { raw: body, headers: {} }, { secret }));
  });
});

describe('github_hmac: X-Hub-Signature sha1 or X-Hub-Signature-256, constant-time', () => {
  const secret = 'gh-secret';
  const sig = (algorithm: 'sha1' | 'sha256', raw: Buffer, key = secret) =>
    `${algorithm}=${createHmac(algorithm, key).update(raw).digest('hex')}`;
  it('accepts sha1 alone, sha256 alone, and names the delivery by X-GitHub-Delivery', async () => {
    expect(
      await verifyInbound(
        'github_hmac',
        { raw: body, headers: { 'X-Hub-Signature': sig('sha1', body), 'X-GitHub-Delivery': 'd-1' } },
        { secret },
      ),
    ).toMatchObject({ deliveryId: 'd-1' });
    expect(
      await verifyInbound(
        'github_hmac',
        { raw: body, headers: { 'x-hub-signature-256': sig('sha256', body) } },
        { secret },
      ),
    ).toMatchObject({ payload: { id: 'evt_1' } });
  });
  it("reads a form-encoded delivery's payload field", async () => {
    const raw = Buffer.from(`payload=${encodeURIComponent(body.toString())}`);
    const r = await verifyInbound(
      'github_hmac',
      { raw, headers: { 'x-hub-signature': sig('sha1', raw), 'content-type': 'application/x-www-form-urlencoded' } },
      { secret },
    );
    expect(r).toMatchObject({ payload: { id: 'evt_1' } });
  });
  it('refuses another secret, an altered body, a wrong length, and a good sha1 beside a bad sha256', async () => {
    expectRefused(
      await verifyInbound(
        'github_hmac',
        { raw: body, headers: { 'x-hub-signature': sig('sha1', body, 'other') } },
        { secret },
      ),
    );
    expectRefused(
      await verifyInbound(
        'github_hmac',
        { raw: alter(body), headers: { 'x-hub-signature': sig('sha1', body) } },
        { secret },
      ),
    );
    expectRefused(
      await verifyInbound('github_hmac', { raw: body, headers: { 'x-hub-signature': 'sha1=abc' } }, { secret }),
    );
    expectRefused(
      await verifyInbound(
        'github_hmac',
        {
          raw: body,
          headers: { 'x-hub-signature': sig('sha1', body), 'x-hub-signature-256': sig('sha256', body, 'other') },
        },
        { secret },
      ),
    );
    expectRefused(await verifyInbound('github_hmac', { raw: body, headers: {} }, { secret }));
  });
});

describe('jwt_jwks: an RS256 token body against a key set', () => {
  const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  const mine = pair();
  const theirs = pair();
  let keys: ReturnType<typeof createLocalJWKSet>;
  beforeAll(async () => {
    keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(mine.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
  });
  const token = (claims: Record<string, unknown>, key = mine.privateKey, kid = 'k1', iat?: number) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid });
    if (iat !== undefined) jwt.setIssuedAt(iat);
    return jwt.sign(key);
  };
  const claims = { type: 'user.created', event_id: 'event_1', data: { user: { id: 'kp_1' } } };
  it('accepts a token of a key in the set; event_id names the delivery', async () => {
    const raw = Buffer.from(await token(claims));
    expect(await verifyInbound('jwt_jwks', { raw, headers: {} }, { keys })).toMatchObject({
      deliveryId: 'event_1',
      payload: { type: 'user.created' },
    });
  });
  it('refuses a token of another key, an altered token, a stale iat, and a body that is no token', async () => {
    expectRefused(
      await verifyInbound(
        'jwt_jwks',
        { raw: Buffer.from(await token(claims, theirs.privateKey)), headers: {} },
        { keys },
      ),
    );
    const good = await token(claims);
    const [h, p, s] = good.split('.');
    const altered = Buffer.from(p, 'base64url').toString().replace('kp_1', 'kp_2');
    expectRefused(
      await verifyInbound(
        'jwt_jwks',
        { raw: Buffer.from(`${h}.${Buffer.from(altered).toString('base64url')}.${s}`), headers: {} },
        { keys },
      ),
    );
    expectRefused(
      await verifyInbound(
        'jwt_jwks',
        {
          raw: Buffer.from(await token(claims, mine.privateKey, 'k1', Math.floor(Date.now() / 1000) - 301)),
          headers: {},
        },
        { keys },
      ),
    );
    expectRefused(await verifyInbound('jwt_jwks', { raw: body, headers: {} }, { keys }));
  });
  it('a shared secret is no key set', async () => {
    expectRefused(
      await verifyInbound('jwt_jwks', { raw: Buffer.from(await token(claims)), headers: {} }, { secret: 'x' }),
    );
  });
});
