import { Refusal } from '@app/platform';
import { jwksUrl, parseConnectInput } from './door-kinds';

const clerkSecret = `whsec_${Buffer.from('a-test-secret-of-32-bytes-length!').toString('base64')}`;
const refusal = (r: unknown) => {
  expect(r).toBeInstanceOf(Refusal);
  expect((r as Refusal).code).toBe('invalid_field');
  return (r as Refusal).message;
};

describe('parseConnectInput: what each door is connected with', () => {
  const pub = { allowPrivate: false };
  it('payment, auth_a and hosting take a secret; hosting may take stars', () => {
    expect(parseConnectInput({ kind: 'payment', secret: 'whsec_abc123' }, pub)).toEqual({
      kind: 'payment',
      secret: 'whsec_abc123',
      domain: null,
      stars: false,
    });
    expect(parseConnectInput({ kind: 'auth_a', secret: clerkSecret }, pub)).toMatchObject({
      kind: 'auth_a',
      secret: clerkSecret,
    });
    expect(
      parseConnectInput({ kind: 'hosting', secret: 'gh secret'.replace(' ', '-'), stars: true }, pub),
    ).toMatchObject({ kind: 'hosting', stars: true });
  });
  it('auth_b takes a host name only', () => {
    expect(parseConnectInput({ kind: 'auth_b', domain: 'Acme.kinde.com' }, pub)).toEqual({
      kind: 'auth_b',
      secret: null,
      domain: 'acme.kinde.com',
      stars: false,
    });
    expect(refusal(parseConnectInput({ kind: 'auth_b', domain: 'acme.kinde.com', secret: 'x' }, pub))).toMatch(
      /no secret/,
    );
  });
  it("refuses an unknown kind, a missing secret, a secret that is not the provider's, a domain on another kind, stars elsewhere", () => {
    expect(refusal(parseConnectInput({ kind: 'email', secret: 'x' }, pub))).toMatch(/payment, auth_a, auth_b, hosting/);
    expect(refusal(parseConnectInput({ kind: 'payment' }, pub))).toMatch(/signing secret/);
    expect(refusal(parseConnectInput({ kind: 'payment', secret: 'sk_live_abc' }, pub))).toMatch(/whsec_/);
    expect(refusal(parseConnectInput({ kind: 'auth_a', secret: 'whsec_!!' }, pub))).toMatch(/whsec_/);
    expect(refusal(parseConnectInput({ kind: 'hosting', secret: 's', domain: 'acme.kinde.com' }, pub))).toMatch(
      /only the auth_b/,
    );
    expect(refusal(parseConnectInput({ kind: 'payment', secret: 'whsec_a', stars: true }, pub))).toMatch(/stars/);
  });
  it.each(['localhost', 'kinde.internal', 'acme', 'http://127.0.0.1:4010', 'https://acme.kinde.com', '10.0.0.1'])(
    'refuses the domain %s on a real deployment',
    (domain) => {
      refusal(parseConnectInput({ kind: 'auth_b', domain }, pub));
    },
  );
  it('with UNSAFE_ALLOW_PRIVATE_TARGETS an origin is accepted, without a path', () => {
    expect(
      parseConnectInput({ kind: 'auth_b', domain: 'http://127.0.0.1:4010/' }, { allowPrivate: true }),
    ).toMatchObject({ domain: 'http://127.0.0.1:4010' });
    refusal(parseConnectInput({ kind: 'auth_b', domain: 'http://127.0.0.1:4010/keys' }, { allowPrivate: true }));
  });
  it("jwksUrl: https://{domain}/.well-known/jwks, or the origin's", () => {
    expect(jwksUrl('acme.kinde.com')).toBe('https://acme.kinde.com/.well-known/jwks');
    expect(jwksUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010/.well-known/jwks');
  });
});
