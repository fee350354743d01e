// The website endpoints (docs/rest.md#website-endpoints): their rules, refusals and limits; public
// answers carry ok and status only; honeypot posts.
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startApp, TestApp, useApp, useWorkspace } from './harness';
import { postSegment } from './support/segment';

const SITE = 'https://shop.example.com';
const t = useApp();
const ws = useWorkspace(t, { origins: [SITE, 'https://*.blog.example.com'] });
beforeEach(async () => {
  await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
});

const door = (action: string, body: unknown, headers: Record<string, string> = { origin: SITE }, key = ws.publicKey) =>
  t.request('POST', `/api/in/${key}/${action}`, { body, headers });
const people = async () =>
  Number((await t.db.query(`SELECT count(*) AS n FROM people WHERE workspace_id = $1`, [ws.workspace.id]))[0].n);
const consent = { text: 'Yes, send me the monthly news.' };

describe('the four doors answer ok and status only, never a record id', () => {
  it.each([
    ['subscribe', { email: 'v@example.com', list: 'news', consent }, 'subscribed'],
    ['identify', { email: 'v@example.com', name: 'Vi' }, 'created'],
    ['event', { type: 'pageview', anon_id: 'anon-1', source: { path: '/' } }, 'recorded'],
    ['support', { from: 'v@example.com', message: 'Hello?' }, 'recorded'],
  ])('%s', async (action, body, status) => {
    const answer = await door(action, body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, status });
    expect(answer.headers.get('access-control-allow-origin')).toBe(SITE);
  });
});

describe('rule 1: posts are accepted only from the sites the workspace names', () => {
  it.each([
    ['another site', { origin: 'https://evil.example.net' }],
    ['no Origin at all', {} as Record<string, string>],
    ['a lookalike of a wildcard', { origin: 'https://blog.example.com.evil.net' }],
  ])('%s: 403 origin_not_allowed and nothing written', async (_case, headers) => {
    const answer = await door('event', { type: 'pageview', anon_id: 'x' }, headers);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('origin_not_allowed');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(await people()).toBe(0);
  });

  it('a *.example.com pattern allows its subdomains', async () => {
    expect(
      (await door('event', { type: 'pageview', anon_id: 'x' }, { origin: 'https://en.blog.example.com' })).status,
    ).toBe(200);
  });

  it('CORS preflight is answered for allowed origins only', async () => {
    const allowed = await t.request('OPTIONS', `/api/in/${ws.publicKey}/subscribe`, {
      headers: { origin: SITE, 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/content-type/i);
    const refused = await t.request('OPTIONS', `/api/in/${ws.publicKey}/subscribe`, {
      headers: { origin: 'https://evil.example.net' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('an Origin header that is not an origin is refused, never echoed nor counted', () => {
  const NOT_ORIGINS = [
    ['a path after the site', `${SITE}/path`],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['two origins in one header', `${SITE}, https://b.test`],
    ['spaces around the site', `${SITE} x`],
    ['a user before the host', 'https://user@shop.example.com'],
    ['capitals', 'HTTPS://SHOP.EXAMPLE.COM'],
    ['the default port written out', `${SITE}:443`],
    ['a scheme other than http and https', 'ftp://shop.example.com'],
    ['over 200 characters', `https://${'a'.repeat(200)}.example.com`],
  ];
  const rows = async () =>
    (await t.gql('{ heartbeat { action answer origin count } }', {}, ws.secretKey)).data.heartbeat as {
      origin: string;
    }[];

  it.each(NOT_ORIGINS)('%s: 403 origin_not_allowed at the public door', async (_case, origin) => {
    const answer = await door('event', { type: 'pageview', anon_id: 'x' }, { origin });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('origin_not_allowed');
    expect(answer.body.message).toMatch(/not an origin/);
    expect(answer.body.message).not.toContain(origin);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(await people()).toBe(0);
    expect((await rows()).map((r) => r.origin)).not.toContain(origin);
  });

  it.each(NOT_ORIGINS)('%s: refused at the Segment door and its preflight too', async (_case, origin) => {
    const post = await postSegment(
      t.url,
      '/v1/track',
      { anonymousId: 'v', event: 'Signed Up' },
      {
        key: ws.publicKey,
        headers: { origin },
      },
    );
    expect(post).toMatchObject({ status: 403, body: { error: 'origin_not_allowed' } });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await t.request('OPTIONS', '/v1/track', { headers: { origin } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect((await rows()).map((r) => r.origin)).not.toContain(origin);
  });

  it('an IPv6 site with a port is an origin; null (a sandboxed frame, file://) answers as before', async () => {
    const v6 = await door('event', { type: 'pageview', anon_id: 'x' }, { origin: 'http://[::1]:8080' });
    expect(v6.status).toBe(403);
    expect(v6.body.message).toContain('not http://[::1]:8080');
    const sandboxed = await door('event', { type: 'pageview', anon_id: 'x' }, { origin: 'null' });
    expect(sandboxed.status).toBe(403);
    expect(sandboxed.body.message).toContain('not null');
    const preflight = await t.request('OPTIONS', '/v1/track', { headers: { origin: 'null' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('null');
  });
});

describe('rule 2: hp and website are honeypots', () => {
  it.each(['hp', 'website'])('a post with %s filled is accepted and thrown away', async (field) => {
    const answer = await door('subscribe', {
      email: 'bot@example.com',
      list: 'news',
      consent,
      [field]: 'http://spam.example',
    });
    expect(answer.body).toEqual({ ok: true, status: 'subscribed' });
    expect(await people()).toBe(0);
  });

  it('an empty honeypot field is a person, not a bot', async () => {
    expect((await door('subscribe', { email: 'human@example.com', list: 'news', consent, hp: '' })).body.status).toBe(
      'subscribed',
    );
    expect(await people()).toBe(1);
  });
});

describe('rules 3 and 4: an 8 KB cap, JSON objects only', () => {
  it('a body over 8 KB answers 413 too_large', async () => {
    const answer = await door('support', { from: 'big@example.com', message: 'x'.repeat(9 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe('too_large');
    expect(await people()).toBe(0);
  });

  it.each([
    ['an array', '[1,2]'],
    ['a string', '"hi"'],
    ['broken JSON', '{"type":'],
  ])('%s answers invalid_json', async (_case, raw) => {
    const answer = await t.request('POST', `/api/in/${ws.publicKey}/event`, { raw, headers: { origin: SITE } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_json');
  });
});

describe('the public rows of Errors', () => {
  it('unknown_key for a public key that matches no workspace', async () => {
    const answer = await door(
      'event',
      { type: 'pageview', anon_id: 'x' },
      { origin: SITE },
      'wk_000000000000000000000000',
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('unknown_key');
  });

  it('unknown_action for a last path part that is not an action', async () => {
    const answer = await door('purchase', { type: 'purchase', email: 'a@b.co' });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('unknown_action');
  });

  it('only built-in names: a custom name is unknown_event', async () => {
    const answer = await door('event', { type: 'report_exported', anon_id: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('unknown_event');
    expect(await people()).toBe(0);
  });

  it('the event door takes events only: an action posted there is unknown_event and writes nothing', async () => {
    for (const type of ['subscribe', 'identify', 'support']) {
      const answer = await door('event', { type, email: 'sneak@example.com', list: 'news', consent, message: 'hi' });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        ok: false,
        error: 'unknown_event',
        message: expect.stringContaining(`post it to the ${type} address`),
      });
    }
    expect(await people()).toBe(0);
  });

  it('consent.text is required on subscribe (a bare string is not enough)', async () => {
    expect((await door('subscribe', { email: 'c@example.com', list: 'news', consent: 'Yes' })).body.error).toBe(
      'missing_consent',
    );
    expect((await door('subscribe', { email: 'c@example.com', list: 'news', consent: {} })).body.error).toBe(
      'missing_consent',
    );
    expect((await door('subscribe', { email: 'c@example.com', list: 'nope', consent })).body.error).toBe(
      'unknown_list',
    );
    expect(await people()).toBe(0);
  });

  it('identify needs a key; support needs a message; an event needs an identity', async () => {
    expect((await door('identify', { name: 'x' })).body.error).toBe('nothing_to_identify');
    expect((await door('support', { from: 'a@example.com' })).body.error).toBe('empty_message');
    expect((await door('event', { type: 'pageview' })).body.error).toBe('no_identity');
  });

  it('the visitor address is kept with the consent as proof', async () => {
    await door('subscribe', { email: 'proof@example.com', list: 'news', consent, anon_id: 'tab-7' });
    const [row] = await t.db.query(
      `SELECT consent, consent_ip, consent_text FROM subscriptions WHERE workspace_id = $1`,
      [ws.workspace.id],
    );
    expect(row.consent_text).toBe(consent.text);
    expect(row.consent_ip).toMatch(/127\.0\.0\.1/);
  });
});

describe('rule 5: per-IP limits per workspace per ten minutes', () => {
  it('support allows 10 per visitor IP, then 429 rate_limited with Retry-After and nothing written', async () => {
    for (let i = 0; i < 10; i++)
      expect((await door('support', { from: `s${i}@example.com`, message: 'hi' })).status).toBe(200);
    const answer = await door('support', { from: 'late@example.com', message: 'hi' });
    expect(answer.status).toBe(429);
    expect(answer.body.error).toBe('rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await people()).toBe(10);
  });

  it.each([
    ['identify', 60, (i: number) => ({ email: `i${i}@example.com` })],
    ['event', 240, (i: number) => ({ type: 'pageview', anon_id: `v${i}` })],
  ])('%s allows %i per visitor IP, then 429 with nothing written', async (action, limit, body) => {
    const answers = await Promise.all(
      Array.from({ length: limit }, (_, i) => door(action as string, (body as (i: number) => object)(i))),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const before = await people();
    const over = await door(action as string, (body as (i: number) => object)(limit));
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('rate_limited');
    expect(await people()).toBe(before);
  });

  it('subscribe allows 20 per visitor IP; another workspace counts apart', async () => {
    const answers = await Promise.all(
      Array.from({ length: 21 }, (_, i) => door('subscribe', { email: `f${i}@example.com`, list: 'news', consent })),
    );
    expect(answers.filter((a) => a.status === 429)).toHaveLength(1);
    const other = await t.workspace({ origins: [SITE] });
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, other.secretKey);
    expect(
      (await door('subscribe', { email: 'o@example.com', list: 'news', consent }, { origin: SITE }, other.publicKey))
        .status,
    ).toBe(200);
  });
});

describe('the heartbeat records website posts with their origin', () => {
  it('counts per action, answer and origin', async () => {
    await door('event', { type: 'pageview', anon_id: 'h1' });
    await door('event', { type: 'custom_thing', anon_id: 'h1' });
    const rows = (await t.gql('{ heartbeat { action answer origin count } }', {}, ws.secretKey)).data.heartbeat;
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'event', answer: 'recorded', origin: SITE, count: 1 },
        { action: 'event', answer: 'unknown_event', origin: SITE, count: 1 },
      ]),
    );
  });
});

describe('GET track.js', () => {
  it('serves the tag with the public address and script cache headers, never a secret', async () => {
    const response = await fetch(`${t.url}/api/in/${ws.publicKey}/track.js`);
    const code = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(code).toContain(JSON.stringify(`${t.url}/api/in/${ws.publicKey}`));
    expect(code).not.toContain('sk_live_');
    expect(Buffer.byteLength(code)).toBeLessThan(4096);
  });
});

describe('GET track.js compressed and cached', () => {
  const raw = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, any>; body: Buffer }>((resolve, reject) => {
      get(`${t.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  const path = () => `/api/in/${ws.publicKey}/track.js`;

  it('answers br, gzip or plain as asked, the same script each way, with a long cache, Vary and an ETag', async () => {
    const plain = await raw(path(), {});
    const br = await raw(path(), { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await raw(path(), { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
    expect(gunzipSync(gzip.body).toString()).toBe(plain.body.toString());
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(plain.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(br.headers.etag).toBe(plain.headers.etag);
  });

  it('an If-None-Match with the ETag gets a 304 and no body; another workspace has another ETag', async () => {
    const first = await raw(path(), {});
    const again = await raw(path(), { 'if-none-match': first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await raw(path(), { 'if-none-match': '"something-else"' })).status).toBe(200);
    const other = await t.workspace({ origins: [SITE] });
    expect((await raw(`/api/in/${other.publicKey}/track.js`, {})).headers.etag).not.toBe(first.headers.etag);
  });
});

describe('client IP: the socket, or X-Forwarded-For only under TRUST_PROXY', () => {
  const tenSupportPosts = async (app: TestApp, key: string, forwardedFor: (i: number) => string) => {
    const answers = [];
    for (let i = 0; i < 11; i++) {
      answers.push(
        await app.request('POST', `/api/in/${key}/support`, {
          body: { from: `x${i}@example.com`, message: 'hi' },
          headers: { origin: SITE, 'x-forwarded-for': forwardedFor(i) },
        }),
      );
    }
    return answers.map((a) => a.status);
  };

  it('without TRUST_PROXY a forged X-Forwarded-For does not escape the per-IP limit', async () => {
    const statuses = await tenSupportPosts(t, ws.publicKey, (i) => `198.51.100.${i}`);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("with TRUST_PROXY each forwarded visitor has a limit of their own; only the proxy's own entry counts", async () => {
    const proxied = await startApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const w = await proxied.workspace({ origins: [SITE] });
      const statuses = await tenSupportPosts(proxied, w.publicKey, (i) => `198.51.100.${i}`);
      expect(statuses.every((s) => s === 200)).toBe(true);
      // A visitor who writes their own X-Forwarded-For entries ahead of the proxy's cannot pick a new address.
      const forged = await tenSupportPosts(proxied, w.publicKey, (i) => `203.0.113.${i}, 198.51.100.77`);
      expect(forged.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(forged[10]).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});
