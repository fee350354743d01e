// The authorize request a consent page carries is signed, bound to its session, and runs out.
import { authorizeRedirect, ConsentRequest, openConsent, signConsent } from './consent-request';

const request: ConsentRequest = {
  clientId: 'cli_1',
  redirectUri: 'http://127.0.0.1:9/callback',
  redirectUriNamed: true,
  challenge: 'c'.repeat(43),
  state: 's',
  scopes: [],
  resource: 'https://lifeline.example/api/mcp',
  sessionId: 'ses_1',
  until: 10_000,
};
const SECRET = 'app-secret-0123456789-0123456789';

describe('consent requests', () => {
  it('open as signed while they last', () => {
    expect(openConsent(signConsent(request, SECRET), SECRET, 9_999)).toEqual(request);
    expect(openConsent(signConsent(request, SECRET), SECRET, 10_000)).toBeNull();
  });

  it('refuse another secret, an altered body, and nonsense', () => {
    const signed = signConsent(request, SECRET);
    expect(openConsent(signed, 'another-secret-0123456789-01234', 0)).toBeNull();
    const [, mac] = signed.split('.');
    const altered = Buffer.from(JSON.stringify({ ...request, redirectUri: 'https://evil.example/cb' })).toString(
      'base64url',
    );
    expect(openConsent(`${altered}.${mac}`, SECRET, 0)).toBeNull();
    expect(openConsent('', SECRET, 0)).toBeNull();
    expect(openConsent('a.b.c', SECRET, 0)).toBeNull();
  });

  it('answer the client at its redirect address with its state and the issuer (RFC 9207)', () => {
    expect(
      authorizeRedirect('http://127.0.0.1:9/callback?x=1', 'https://lifeline.example', {
        code: 'llc_1',
        state: 's',
        error: undefined,
      }),
    ).toBe('http://127.0.0.1:9/callback?x=1&code=llc_1&state=s&iss=https%3A%2F%2Flifeline.example');
  });
});
