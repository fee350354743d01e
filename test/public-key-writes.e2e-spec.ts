// What the public key (wk_…, in every page of a site) may write, whoever posts it: curl sets any Origin
// (docs/security.md#the-public-key-writes-only-what-the-tag-posts). The website endpoints and Segment's
// routes take only the names the tag posts; a batch spends one of the visitor's allowance per call; a
// browser's Segment post is held to the website's 8 KB.
import { BUILT_IN_EVENTS, TAG_EVENTS } from '@app/events';
import { useApp, useWorkspace } from './harness';
import { postSegment } from './support/segment';

const SITE = 'https://shop.example.com';
const t = useApp();
const ws = useWorkspace(t, { origins: [SITE] });

const events = async () =>
  Number((await t.db.query(`SELECT count(*) AS n FROM events WHERE workspace_id = $1`, [ws.workspace.id]))[0].n);
const SERVER_NAMES = BUILT_IN_EVENTS.filter((name) => !TAG_EVENTS.includes(name));

describe('the public key takes only the names the tag posts', () => {
  it.each(SERVER_NAMES)(
    '%s from /api/in is unknown_event, sent to the secret key, and writes nothing',
    async (name) => {
      const answer = await t.request('POST', `/api/in/${ws.publicKey}/event`, {
        body: { type: name, email: 'stranger@example.com', value: 1_000_000 },
        headers: { origin: SITE },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('unknown_event');
      expect(answer.body.message).toContain('POST /api/v1/events');
      expect(await events()).toBe(0);
    },
  );

  it("Segment's routes with the public key: a spec name of a server's event is refused in a batch, a page kept", async () => {
    const answer = await postSegment(
      t.url,
      '/v1/batch',
      {
        batch: [
          { type: 'track', anonymousId: 'v-1', event: 'Order Completed', properties: { revenue: 1_000_000 } },
          { type: 'track', anonymousId: 'v-1', event: 'Signed Up', traits: { email: 'stranger@example.com' } },
          { type: 'track', anonymousId: 'v-1', event: 'subscription_cancelled' },
          { type: 'page', anonymousId: 'v-1', name: 'Pricing' },
        ],
      },
      { key: ws.publicKey },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r: { error?: string; status?: string }) => r.error ?? r.status)).toEqual([
      'unknown_event',
      'unknown_event',
      'unknown_event',
      'recorded',
    ]);
    expect(answer.body.results[0].message).toContain('POST /api/v1/events');
    const types = await t.db.query(`SELECT type FROM events WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(types.map((r: { type: string }) => r.type)).toEqual(['pageview']);
  });

  it('the secret key still records them', async () => {
    const answer = await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'purchase', email: 'buyer@example.com', value: 49 },
    });
    expect(answer.body).toMatchObject({ ok: true, status: 'recorded' });
  });
});

describe("a batch spends one of the visitor's allowance per call", () => {
  const pages = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({ type: 'page', anonymousId: `v-${from + i}` }));
  const batch = (n: number, from = 0) =>
    postSegment(t.url, '/v1/batch', { batch: pages(n, from) }, { key: ws.publicKey });

  it('three batches of 60 leave 60 of 240: a batch of 61 is 429 saying so, and writes nothing; 60 more are taken', async () => {
    for (let i = 0; i < 3; i++) expect((await batch(60, i * 60)).status).toBe(200);
    const over = await batch(61, 180);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'rate_limited' });
    expect(over.body.message).toContain('60 are left');
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await events()).toBe(180);
    expect((await batch(60, 180)).status).toBe(200);
    expect(await events()).toBe(240);
    expect((await postSegment(t.url, '/v1/page', { anonymousId: 'v-last' }, { key: ws.publicKey })).status).toBe(429);
  });
});

describe("a browser's Segment post is held to the website's 8 KB", () => {
  const padded = (bytes: number) => ({ anonymousId: 'v-big', name: 'Pricing', properties: { pad: 'x'.repeat(bytes) } });

  it('a 9 KB call with the public key is 413 too_large and writes nothing; with the secret key it is recorded', async () => {
    const big = await postSegment(t.url, '/v1/page', padded(9 * 1024), { key: ws.publicKey });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'too_large' });
    expect(big.body.message).toContain('8 KB');
    const bigBatch = await postSegment(
      t.url,
      '/v1/batch',
      { batch: [padded(5 * 1024), padded(5 * 1024)].map((call) => ({ type: 'page', ...call })) },
      { key: ws.publicKey },
    );
    expect(bigBatch.status).toBe(413);
    expect(await events()).toBe(0);
    expect((await postSegment(t.url, '/v1/page', padded(7 * 1024), { key: ws.publicKey })).body).toMatchObject({
      status: 'recorded',
    });
    expect((await postSegment(t.url, '/v1/page', padded(9 * 1024), { key: ws.secretKey })).body).toMatchObject({
      status: 'recorded',
    });
  });
});
