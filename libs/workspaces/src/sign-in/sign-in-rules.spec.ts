// The rules of sessions, links and connectors' tokens.
import {
  crossSiteRefusal,
  HOUR_MS,
  isCodeChallenge,
  isTokenOf,
  isToolDoorResource,
  newToken,
  redirectUriRefusal,
  safeNext,
  SESSION_COOKIE,
  sessionCookieOf,
  sessionRefusal,
  SessionState,
  tokenHash,
} from './sign-in-rules';

const BASE = 'https://lifeline.example';
const at = (ms: number) => new Date(ms);

describe('sessionRefusal', () => {
  const live: SessionState = {
    via: 'email',
    seen_at: at(0),
    ends_at: at(7 * 24 * HOUR_MS),
    member_removed: false,
    key_revoked: null,
    operator_hash: null,
  };

  it('lets a session in until 12 hours idle or its 7 days, whichever comes first', () => {
    expect(sessionRefusal(live, 12 * HOUR_MS - 1, null)).toBeNull();
    expect(sessionRefusal(live, 12 * HOUR_MS, null)).toBe('idle');
    expect(sessionRefusal({ ...live, seen_at: at(7 * 24 * HOUR_MS - HOUR_MS) }, 7 * 24 * HOUR_MS, null)).toBe('ended');
  });

  it('ends a member session whose member is removed, and a key session whose key is revoked (or gone)', () => {
    expect(sessionRefusal({ ...live, member_removed: true }, 1, null)).toBe('member removed');
    const keyed: SessionState = { ...live, via: 'key', key_revoked: false };
    expect(sessionRefusal(keyed, 1, null)).toBeNull();
    expect(sessionRefusal({ ...keyed, key_revoked: true }, 1, null)).toBe('key revoked');
    expect(sessionRefusal({ ...keyed, key_revoked: null }, 1, null)).toBe('key revoked');
  });

  it('ends an operator session once ADMIN_TOKEN changes or is unset', () => {
    const operator: SessionState = {
      ...live,
      via: 'operator',
      member_removed: null,
      operator_hash: tokenHash('first-token-0123456789'),
    };
    expect(sessionRefusal(operator, 1, tokenHash('first-token-0123456789'))).toBeNull();
    expect(sessionRefusal(operator, 1, tokenHash('second-token-0123456789'))).toBe('operator token changed');
    expect(sessionRefusal(operator, 1, null)).toBe('operator token changed');
  });
});

describe('safeNext', () => {
  it.each([
    ['/graphql', '/graphql'],
    [
      '/authorize?client_id=x&redirect_uri=http%3A%2F%2F127.0.0.1',
      '/authorize?client_id=x&redirect_uri=http%3A%2F%2F127.0.0.1',
    ],
    ['https://evil.example/', '/sign-in'],
    ['//evil.example/', '/sign-in'],
    ['/\\evil.example', '/sign-in'],
    ['javascript:alert(1)', '/sign-in'],
    [undefined, '/sign-in'],
    [['/a', '/b'], '/sign-in'],
  ])('%p leads to %p', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });
});

describe('redirectUriRefusal', () => {
  it.each([
    'https://app.example/callback',
    'http://127.0.0.1:3333/callback',
    'http://localhost:8080/cb',
    'http://[::1]:9/cb',
  ])('takes %s', (uri) => {
    expect(redirectUriRefusal(uri)).toBeNull();
  });

  it.each([
    'http://app.example/callback',
    'https://app.example/cb#frag',
    'http://127.0.0.1:9/cb#',
    `https://app.example/${'a'.repeat(2000)}`,
    'not a url',
    'ftp://127.0.0.1/cb',
    'http://127.0.0.1.evil.example/cb',
  ])('refuses %s', (uri) => {
    expect(redirectUriRefusal(uri)).toEqual(expect.any(String));
  });
});

describe('isCodeChallenge (RFC 7636 section 4.2)', () => {
  it('takes 43 to 128 characters of letters, digits, -, ., _ and ~', () => {
    expect(isCodeChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(isCodeChallenge('a.b_c~d-'.repeat(16))).toBe(true);
  });

  it.each(['abc', 'a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${'a'.repeat(42)}=`, `${'a'.repeat(42)} `])(
    'refuses %s',
    (challenge) => {
      expect(isCodeChallenge(challenge)).toBe(false);
    },
  );
});

describe('the tool door as the one resource', () => {
  it('names {BASE_URL}/api/mcp only (a trailing slash aside)', () => {
    expect(isToolDoorResource(`${BASE}/api/mcp`, BASE)).toBe(true);
    expect(isToolDoorResource(`${BASE}/api/mcp/`, BASE)).toBe(true);
    expect(isToolDoorResource(`${BASE}/api/v1/events`, BASE)).toBe(false);
    expect(isToolDoorResource('https://other.example/api/mcp', BASE)).toBe(false);
    expect(isToolDoorResource(undefined, BASE)).toBe(false);
  });
});

describe('tokens', () => {
  it('are 256 random bits after a prefix that names their kind, stored as their SHA-256', () => {
    const token = newToken('access');
    expect(token).toMatch(/^lla_[0-9A-Za-z]{43}$/);
    expect(isTokenOf('access', token)).toBe(true);
    expect(isTokenOf('refresh', token)).toBe(false);
    expect(isTokenOf('access', 'sk_live_abc')).toBe(false);
    expect(newToken('access')).not.toBe(token);
    expect(tokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the session cookie and the CSRF rule', () => {
  it('finds the session among other cookies', () => {
    expect(sessionCookieOf(`a=1; ${SESSION_COOKIE}=lls_x; b=2`)).toBe('lls_x');
    expect(sessionCookieOf('a=1')).toBeUndefined();
    expect(sessionCookieOf(undefined)).toBeUndefined();
    expect(sessionCookieOf(`x${SESSION_COOKIE}=lls_y`)).toBeUndefined();
  });

  it('takes a JSON POST from this service only', () => {
    expect(crossSiteRefusal({ method: 'POST', contentType: 'application/json', origin: BASE }, BASE)).toBeNull();
    expect(
      crossSiteRefusal({ method: 'POST', contentType: 'application/json; charset=utf-8', origin: BASE }, BASE),
    ).toBeNull();
    expect(crossSiteRefusal({ method: 'GET', contentType: undefined, origin: BASE }, BASE)).toMatch(/POST/);
    expect(
      crossSiteRefusal({ method: 'POST', contentType: 'application/x-www-form-urlencoded', origin: BASE }, BASE),
    ).toMatch(/Content-Type/);
    expect(crossSiteRefusal({ method: 'POST', contentType: 'text/plain', origin: BASE }, BASE)).toMatch(/Content-Type/);
    expect(
      crossSiteRefusal({ method: 'POST', contentType: 'application/json', origin: 'https://evil.example' }, BASE),
    ).toMatch(/Origin/);
    expect(crossSiteRefusal({ method: 'POST', contentType: 'application/json', origin: undefined }, BASE)).toMatch(
      /Origin/,
    );
  });
});
