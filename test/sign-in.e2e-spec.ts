// People sign in at /sign-in with a secret key, a one-time email link or the operator
// token; the session is an HttpOnly cookie that /graphql accepts behind a CSRF defence, and it ends by
// sign-out, 12 hours idle, 7 days, or the loss of its member or key, in every api process at once.
import { INestApplication } from '@nestjs/common';
import { freePort } from '@app/platform';
import { createHash } from 'node:crypto';
import { ConnectionsService, HOUR_MS, SESSION_COOKIE, SessionsService, SignInClock } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { ADMIN_TOKEN, startApp, TestApp, useApp } from './harness';
import { Mail, Smtp, smtpServer } from './support/smtp';

/** A browser's form post to the service (its own Origin unless told), without following redirects. */
async function form(
  t: TestApp,
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string } = {},
) {
  return fetch(t.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: options.origin ?? new URL(t.url).origin,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The session cookie a sign-in answer set, as a Cookie header. */
function cookieOf(response: Response): string {
  const set = response.headers.get('set-cookie') ?? '';
  const match = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(set);
  if (!match) throw new Error(`no session cookie in ${response.status}: ${set}`);
  return `${SESSION_COOKIE}=${match[1]}`;
}

/** A GraphQL post as the signed-in page makes it: the cookie, JSON, this service's Origin. */
async function gqlAs(url: string, cookie: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(url).origin, cookie, ...headers },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: any; errors?: Array<{ message: string; extensions: { code: string } }> };
}

const codeOf = (answer: { errors?: Array<{ extensions: { code: string } }> }) => answer.errors?.[0]?.extensions.code;

describe('signing in with a secret key', () => {
  const t = useApp();

  it("sets an HttpOnly, SameSite=Lax session cookie that /graphql accepts as the key's member", async () => {
    const ws = await t.workspace();
    const answer = await form(t, '/sign-in/key', { key: ws.secretKey, next: '/graphql' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/graphql');
    const set = answer.headers.get('set-cookie')!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).not.toMatch(/Secure/); // http here; under https it is Secure
    const cookie = cookieOf(answer);
    const members = await gqlAs(t.url, cookie, '{ members { email role } }');
    expect(members.data.members).toEqual([{ email: 'owner@example.com', role: 'owner' }]);
    // The token is stored hashed: the table never holds it.
    const token = cookie.split('=')[1];
    expect(await t.db.query(`SELECT 1 FROM sessions WHERE token_hash = $1`, [token])).toHaveLength(0);
    // Signed in, /sign-in sends the browser on to the console.
    const page = await fetch(`${t.url}/sign-in`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console/');
  });

  it('a wrong key is shown in words on the page (role alert), with no cookie', async () => {
    const answer = await form(t, '/sign-in/key', { key: 'sk_live_not-a-key', next: '/sign-in' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(await answer.text()).toMatch(/role="alert"[^>]*>[^<]*not a live secret key/);
  });

  it('a cross-site form post to /graphql with the cookie is refused, as are JSON posts from another Origin or none', async () => {
    const ws = await t.workspace();
    const cookie = cookieOf(await form(t, '/sign-in/key', { key: ws.secretKey, next: '/sign-in' }));
    const mutation = 'mutation { createKey(member: "thief@example.com") { secretKey } }';
    const crossSite = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie },
      body: new URLSearchParams({ query: mutation }).toString(),
    });
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await crossSite.json())).not.toContain('sk_live_');
    expect(codeOf(await gqlAs(t.url, cookie, mutation, { origin: 'https://evil.example' }))).toBe('forbidden');
    const noOrigin = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ query: mutation }),
    });
    expect(
      ((await noOrigin.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code,
    ).toBe('forbidden');
    const keys = await t.db.query(`SELECT 1 FROM members WHERE workspace_id = $1 AND email = 'thief@example.com'`, [
      ws.workspace.id,
    ]);
    expect(keys).toHaveLength(0);
    // A sign-in form posted from another site is refused too (login CSRF).
    expect((await form(t, '/sign-in/key', { key: ws.secretKey }, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('sign-out ends the session: the old cookie is refused and cleared', async () => {
    const ws = await t.workspace();
    const cookie = cookieOf(await form(t, '/sign-in/key', { key: ws.secretKey }));
    const out = await form(t, '/sign-out', {}, { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    expect(codeOf(await gqlAs(t.url, cookie, '{ members { email } }'))).toBe('invalid_token');
  });

  it('ends after 12 hours idle, and after 7 days however busy (test clock)', async () => {
    const ws = await t.workspace();
    const clock = t.app.get(SignInClock);
    const idle = cookieOf(await form(t, '/sign-in/key', { key: ws.secretKey }));
    clock.advance(11 * HOUR_MS);
    expect(codeOf(await gqlAs(t.url, idle, '{ members { email } }'))).toBeUndefined();
    clock.advance(12 * HOUR_MS); // 12 hours since its last request
    expect(codeOf(await gqlAs(t.url, idle, '{ members { email } }'))).toBe('invalid_token');

    const busy = cookieOf(await form(t, '/sign-in/key', { key: ws.secretKey }));
    for (let hours = 11; hours < 7 * 24; hours += 11) {
      clock.advance(11 * HOUR_MS);
      expect(codeOf(await gqlAs(t.url, busy, '{ members { email } }'))).toBeUndefined();
    }
    clock.advance(11 * HOUR_MS); // past 7 days since it began, though never idle
    expect(codeOf(await gqlAs(t.url, busy, '{ members { email } }'))).toBe('invalid_token');
  });
});

describe('a removed member, or a revoked key, ends the session at the next request in every api process', () => {
  const t = useApp();
  let other: INestApplication;
  let otherUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    otherUrl = `http://127.0.0.1:${port}`;
    other = await createApi({ ...t.config, port }); // a second api process of the same deployment (same BASE_URL)
    await other.listen(port, '127.0.0.1');
  });
  afterAll(() => other.close());

  it('removing the member (through one api) refuses its email session (at another) on the very next request', async () => {
    const ws = await t.workspace();
    await t.gql('mutation { addMember(email: "ada@example.com", role: "member") { id } }', {}, ws.secretKey);
    // An email session (set up through the service: the link's own journey is tested below).
    const sessions = t.app.get(SessionsService);
    const { token } = await sessions.withLink((await sessions.linkFor('ada@example.com', '/'))!);
    const cookie = `${SESSION_COOKIE}=${token}`;
    expect(
      codeOf(await gqlAs(otherUrl, cookie, '{ members { email } }', { origin: new URL(t.url).origin })),
    ).toBeUndefined();
    await t.gql('mutation { removeMember(member: "ada@example.com") }', {}, ws.secretKey);
    expect(codeOf(await gqlAs(otherUrl, cookie, '{ members { email } }', { origin: new URL(t.url).origin }))).toBe(
      'invalid_token',
    );
  });

  it("removing the member refuses their connected apps' access tokens at another api's tool door at once", async () => {
    const ws = await t.workspace();
    await t.gql('mutation { addMember(email: "eve@example.com", role: "member") { id } }', {}, ws.secretKey);
    const member = (
      await t.db.query(`SELECT id FROM members WHERE workspace_id = $1 AND email = 'eve@example.com'`, [
        ws.workspace.id,
      ])
    )[0].id;
    // A connection made through the service (the browser's journey is test/connector-sign-in.e2e-spec.ts).
    const connections = t.app.get(ConnectionsService);
    const client = await connections.register({
      redirect_uris: ['http://127.0.0.1:1/callback'],
      client_name: 'Eve app',
    });
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const resource = `${t.url}/api/mcp`;
    const code = await connections.consent({
      clientId: client.id,
      workspaceId: ws.workspace.id,
      memberId: member,
      challenge,
      redirectUri: 'http://127.0.0.1:1/callback',
      resource,
      scopes: [],
    });
    const tokens = await connections.exchangeCode(client.id, code, 'http://127.0.0.1:1/callback', resource);
    const toolDoor = () =>
      fetch(`${otherUrl}/api/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await toolDoor()).status).toBe(200);
    await t.gql('mutation { removeMember(member: "eve@example.com") }', {}, ws.secretKey);
    const refused = await toolDoor();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_token');
  });

  it('revoking the key a session came from refuses the session at once', async () => {
    const ws = await t.workspace();
    const created = (
      await t.gql('mutation { createKey(member: "bo@example.com") { keyId secretKey } }', {}, ws.secretKey)
    ).data.createKey;
    const cookie = cookieOf(await form(t, '/sign-in/key', { key: created.secretKey }));
    await t.gql(`mutation { revokeKey(id: "${created.keyId}") }`, {}, ws.secretKey);
    expect(codeOf(await gqlAs(otherUrl, cookie, '{ members { email } }', { origin: new URL(t.url).origin }))).toBe(
      'invalid_token',
    );
  });
});

describe('signing in with an email link', () => {
  const received: Mail[] = [];
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await smtpServer(received);
  });
  afterAll(() => smtp.close());
  const t = useApp({ env: () => ({ SMTP_URL: smtp.url }) });

  const linkIn = async (to: string) => {
    for (let i = 0; i < 100 && !received.some((m) => m.to.includes(to)); i++)
      await new Promise((r) => setTimeout(r, 50));
    const mail = received.filter((m) => m.to.includes(to)).pop();
    const link = /(http:\/\/127\.0\.0\.1:\d+\/sign-in\/link\?token=[A-Za-z0-9_%]+)/.exec(
      (mail?.raw ?? '').replace(/=\r?\n/g, ''),
    )?.[1];
    if (!link) throw new Error(`no link in the mail to ${to}`);
    return new URL(link.replace(/=3D/g, '=')).searchParams.get('token')!;
  };

  it('sends a one-time link; opening it signs in with a button; it works once', async () => {
    const ws = await t.workspace();
    await t.gql('mutation { addMember(email: "cy@example.com", role: "admin") { id } }', {}, ws.secretKey);
    const asked = await form(t, '/sign-in/email', { email: 'Cy@Example.com', next: '/graphql' });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('a sign-in link is on its way');
    const token = await linkIn('cy@example.com');
    const page = await fetch(`${t.url}/sign-in/link?token=${token}`);
    expect(await page.text()).toContain('<button type="submit">Sign in</button>');
    const used = await form(t, '/sign-in/link', { token });
    expect(used.status).toBe(303);
    expect(used.headers.get('location')).toBe('/graphql');
    const members = await gqlAs(t.url, cookieOf(used), '{ members { email } }');
    expect(members.data.members.map((m: { email: string }) => m.email)).toContain('cy@example.com');
    const again = await form(t, '/sign-in/link', { token });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('used already or has run out');
  });

  it('answers the same for an address that is no member, and sends nothing', async () => {
    const before = received.length;
    const asked = await form(t, '/sign-in/email', { email: 'stranger@example.com' });
    expect(await asked.text()).toContain('a sign-in link is on its way');
    await new Promise((r) => setTimeout(r, 300));
    expect(received.length).toBe(before);
  });

  it('a member of several workspaces picks one, and can switch', async () => {
    const first = await t.workspace();
    const second = await t.workspace();
    for (const ws of [first, second])
      await t.gql('mutation { addMember(email: "di@example.com", role: "member") { id } }', {}, ws.secretKey);
    await form(t, '/sign-in/email', { email: 'di@example.com', next: '/sign-in' });
    const used = await form(t, '/sign-in/link', { token: await linkIn('di@example.com') });
    expect(used.headers.get('location')).toBe('/sign-in/workspace?next=%2Fsign-in');
    const cookie = cookieOf(used);
    expect(codeOf(await gqlAs(t.url, cookie, '{ members { email } }'))).toBe('forbidden');
    const picker = await (await fetch(`${t.url}/sign-in/workspace`, { headers: { cookie } })).text();
    expect(picker).toContain(first.workspace.slug);
    expect(picker).toContain(second.workspace.slug);
    const slugNow = async () => (await gqlAs(t.url, cookie, '{ workspace { slug } }')).data.workspace.slug;
    expect(
      (await form(t, '/sign-in/workspace', { workspace: first.workspace.id, next: '/sign-in' }, { cookie })).status,
    ).toBe(303);
    expect(await slugNow()).toBe(first.workspace.slug);
    await form(t, '/sign-in/workspace', { workspace: second.workspace.id, next: '/sign-in' }, { cookie });
    expect(await slugNow()).toBe(second.workspace.slug);
    const stranger = await t.workspace();
    expect((await form(t, '/sign-in/workspace', { workspace: stranger.workspace.id }, { cookie })).status).toBe(403);
  });
});

describe('the operator, the page, and the limits', () => {
  it('ADMIN_TOKEN opens an operator session; a wrong one is refused on the page', async () => {
    const t = await startApp();
    try {
      expect((await form(t, '/sign-in/operator', { token: 'not-the-token-0123456789' })).status).toBe(401);
      const cookie = cookieOf(await form(t, '/sign-in/operator', { token: ADMIN_TOKEN }));
      const made = await gqlAs(
        t.url,
        cookie,
        'mutation { createWorkspace(input: { slug: "by-operator", owner: "op@example.com" }) { workspace { slug } } }',
      );
      expect(made.data.createWorkspace.workspace.slug).toBe('by-operator');
    } finally {
      await t.close();
    }
  });

  it('the page names its controls: Secret key with Sign in, Email with Email me a sign-in link, and no script; no other site may frame it', async () => {
    const t = await startApp();
    try {
      const page = await fetch(`${t.url}/sign-in`);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toMatch(/<label for="([^"]+)">Secret key<\/label>/);
      expect(html).toContain('<button type="submit">Sign in</button>');
      expect(html).toMatch(/<label for="([^"]+)">Email<\/label>/);
      expect(html).toContain('Email me a sign-in link</button>');
      expect(html).toContain('written to the api&#39;s log'); // no email provider here
      expect(html).not.toContain('<script');
    } finally {
      await t.close();
    }
  });

  it('sign-in attempts are limited per IP, and link requests per address', async () => {
    const t = await startApp();
    try {
      const ws = await t.workspace();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await form(t, '/sign-in/email', { email: 'owner@example.com' })).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[5]).toBe(429);
      const attempts: number[] = [];
      for (let i = 0; i < 31; i++) attempts.push((await form(t, '/sign-in/key', { key: `sk_live_wrong${i}` })).status);
      expect(attempts.filter((s) => s === 429).length).toBeGreaterThan(0);
      const limited = await form(t, '/sign-in/key', { key: ws.secretKey });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await t.close();
    }
  });
});
