// The session cookie's flags, and the login-CSRF check of the sign-in forms.
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '@app/workspaces';
import { fromOwnPages, setSessionCookie } from './browser';

function cookieSet(baseUrl: string) {
  const calls: Array<[string, string, Record<string, unknown>]> = [];
  setSessionCookie(
    { cookie: (...args: [string, string, Record<string, unknown>]) => calls.push(args) } as unknown as Response,
    'lls_x',
    baseUrl,
  );
  return calls[0];
}

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, 7 days; Secure under https', () => {
    const [name, value, options] = cookieSet('https://lifeline.example');
    expect([name, value]).toEqual([SESSION_COOKIE, 'lls_x']);
    expect(options).toMatchObject({
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
      path: '/',
      maxAge: 7 * 24 * 3_600_000,
    });
    expect(cookieSet('http://localhost:3000')[2]).toMatchObject({ secure: false });
  });
});

describe('fromOwnPages', () => {
  const req = (origin?: string) => ({ headers: origin === undefined ? {} : { origin } }) as Request;
  it("takes this service's Origin, or none, and nothing else", () => {
    expect(fromOwnPages(req('https://lifeline.example'), 'https://lifeline.example')).toBe(true);
    expect(fromOwnPages(req(), 'https://lifeline.example')).toBe(true);
    expect(fromOwnPages(req('https://evil.example'), 'https://lifeline.example')).toBe(false);
    expect(fromOwnPages(req('null'), 'https://lifeline.example')).toBe(false);
  });
});
