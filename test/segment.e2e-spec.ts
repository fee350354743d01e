// Segment-compatible ingest, proven with Segment's own server library (@segment/analytics-node)
// with its host set to the api: the same people, timelines, stages and outgoing webhooks as the same
// facts posted natively; a call retried after a dropped connection stored once; and Segment's answers
// (200 success, 400, 401, 429), with a call that cannot be recorded counted by its refusal code.
import { Analytics } from '@segment/analytics-node';
import { HotDoors } from '@app/edge';
import { HeartbeatService } from '@app/events';
import { ADMIN_TOKEN, eventually, useApp, useWorkspace } from './harness';
import { receiver } from './support/receiver';
import { basicAuth, droppingProxy, nativeItem, postSegment, segmentFacts, sendFactsInOrder } from './support/segment';

const t = useApp({ worker: true });

/** Each person by their account_id: who they are, and their timeline in order. */
async function peopleOf(workspaceId: string) {
  const people = await t.db.query(
    `SELECT i.value AS account_id, p.name, p.email, p.stage, p.fields FROM identities i
       JOIN people p ON p.workspace_id = i.workspace_id AND p.id = i.person_id
      WHERE i.workspace_id = $1 AND i.kind = 'account_id' ORDER BY i.value`,
    [workspaceId],
  );
  const events = await t.db.query(
    `SELECT i.value AS account_id, e.type, e.value, e.detail, e.source, e.properties FROM events e
       JOIN identities i ON i.workspace_id = e.workspace_id AND i.person_id = e.person_id AND i.kind = 'account_id'
      WHERE e.workspace_id = $1 ORDER BY i.value, e.occurred_at, e.type`,
    [workspaceId],
  );
  return { people, events };
}

const scrape = async () => (await t.request('GET', '/metrics', { key: ADMIN_TOKEN })).body as string;
const metric = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}"|]/g, '\\$&')} (\\S+)`, 'm').exec(text)?.[1] ?? 0);

describe("Segment's server library, host set to the api", () => {
  const segment = useWorkspace(t, {}, 'all');
  const native = useWorkspace(t, {}, 'all');

  it('a few thousand identifies, pages and tracks of many users: the same people, timelines, stages and outgoing webhooks as posted natively', async () => {
    const hooks = await receiver();
    try {
      for (const ws of [segment, native]) {
        const made = await t.gql(
          'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
          { input: { url: hooks.url, triggers: ['event', 'stage_entered'] } },
          ws.secretKey,
        );
        expect(made.errors).toBeUndefined();
      }
      const facts = segmentFacts(500);
      expect(facts.length).toBeGreaterThan(2000);

      const analytics = new Analytics({ writeKey: segment.secretKey, host: t.url, flushInterval: 20 });
      const failures: unknown[] = [];
      analytics.on('error', (error) => failures.push(error));
      await sendFactsInOrder(analytics, facts);
      await analytics.closeAndFlush({ timeout: 60_000 });
      expect(failures).toEqual([]);

      for (let i = 0; i < facts.length; i += 100) {
        const answer = await t.request('POST', '/api/v1/events', {
          key: native.secretKey,
          body: { events: facts.slice(i, i + 100).map((f) => nativeItem(f)) },
        });
        expect(answer.status).toBe(200);
      }

      const [viaSegment, posted] = [await peopleOf(segment.workspace.id), await peopleOf(native.workspace.id)];
      expect(viaSegment.people).toHaveLength(500);
      expect(viaSegment.people).toEqual(posted.people);
      expect(viaSegment.events.length).toBeGreaterThan(2000);
      expect(viaSegment.events).toEqual(posted.events);
      expect(new Set(viaSegment.people.map((p: { stage: string }) => p.stage))).toEqual(
        new Set(['account', 'purchaser', 'churned']),
      );

      // Every delivery of each workspace, by what it says (ids and times aside), once neither gets more.
      const deliveriesOf = (workspaceId: string) =>
        hooks.received
          .filter((r) => r.body.workspace.id === workspaceId)
          .map((r) => `${r.body.type} ${r.body.data.event ?? ''} ${r.body.data.stage ?? ''} ${r.body.record.email}`)
          .sort();
      const stamped = viaSegment.events.filter((e: { type: string }) => e.type !== 'stage_changed').length;
      let last = -1;
      await eventually(
        async () => {
          const counts = [deliveriesOf(segment.workspace.id).length, deliveriesOf(native.workspace.id).length];
          const settled = counts[0] >= stamped && counts[1] >= stamped && counts[0] + counts[1] === last;
          last = counts[0] + counts[1];
          return settled;
        },
        40_000,
        500,
      );
      expect(deliveriesOf(segment.workspace.id)).toEqual(deliveriesOf(native.workspace.id));
    } finally {
      await hooks.close();
    }
  }, 90_000);

  it('a batch retried after a dropped connection is stored once', async () => {
    const ws = await t.workspace();
    // The api stores the first post; the proxy then cuts the connection, so the library sends it again.
    const proxy = await droppingProxy(t.url, (n) => n === 1);
    try {
      const analytics = new Analytics({ writeKey: ws.secretKey, host: proxy.url, flushAt: 20 });
      const failures: unknown[] = [];
      analytics.on('error', (error) => failures.push(error));
      for (let i = 0; i < 20; i++)
        analytics.track({ userId: `r-${i % 4}`, event: 'Report Built', properties: { n: i } });
      await analytics.closeAndFlush({ timeout: 30_000 });
      expect(failures).toEqual([]);
      expect(proxy.posts).toBe(2);
      const [{ count }] = await t.db.query(
        `SELECT count(*)::int AS count FROM events WHERE workspace_id = $1 AND type = 'report_built'`,
        [ws.workspace.id],
      );
      expect(count).toBe(20);
    } finally {
      await proxy.close();
    }
  }, 40_000);
});

describe("Segment's answers", () => {
  const ws = useWorkspace(t, { origins: ['https://shop.example.com'] }, 'all');

  it('200 {"success": true} with Lifeline\'s result beside it; Basic auth or writeKey in the body', async () => {
    const track = await postSegment(
      t.url,
      '/v1/track',
      { userId: 'a-1', event: 'Signed Up', messageId: 'm-a1' },
      { key: ws.secretKey },
    );
    expect(track).toMatchObject({
      status: 200,
      body: { success: true, ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) },
    });
    const inBody = await postSegment(t.url, '/v1/identify', {
      userId: 'a-1',
      traits: { email: 'a1@example.com', name: 'Ada' },
      writeKey: ws.secretKey,
    });
    expect(inBody.body).toMatchObject({ success: true, ok: true, status: 'linked' });
    const again = await postSegment(
      t.url,
      '/v1/t',
      { userId: 'a-1', event: 'Signed Up', messageId: 'm-a1' },
      { key: ws.secretKey },
    );
    expect(again.body).toMatchObject({ success: true, ok: true, status: 'recorded' });
    const [{ count }] = await t.db.query(
      `SELECT count(*)::int AS count FROM events WHERE workspace_id = $1 AND type = 'signup'`,
      [ws.workspace.id],
    );
    expect(count).toBe(1);
  });

  it('the paths servers post to are answered before Express, as the events endpoint is; the browser letters by the route', async () => {
    const hot = t.app.get(HotDoors);
    const before = hot.answered;
    expect(
      (
        await postSegment(
          t.url,
          '/v1/batch',
          { batch: [{ type: 'track', userId: 'h-1', event: 'Signed Up' }] },
          { key: ws.secretKey },
        )
      ).body,
    ).toMatchObject({ success: true, ok: true });
    expect(hot.answered).toBe(before + 1);
    expect(
      (await postSegment(t.url, '/v1/b', { batch: [{ type: 'page', userId: 'h-1' }] }, { key: ws.secretKey })).body,
    ).toMatchObject({ success: true, ok: true });
    expect(hot.answered).toBe(before + 1);
  });

  it('400 for a body that is not JSON, a call over 32 KB or a batch over 500 KB; 401 for a missing or unknown key', async () => {
    expect((await postSegment(t.url, '/v1/track', null, { key: ws.secretKey, raw: '{"event": ' })).status).toBe(400);
    const big = { userId: 'a-2', event: 'Report Built', properties: { blob: 'x'.repeat(33 * 1024) } };
    expect(await postSegment(t.url, '/v1/track', big, { key: ws.secretKey })).toMatchObject({
      status: 400,
      body: { ok: false, error: 'invalid_field' },
    });
    const batch = {
      batch: Array.from({ length: 20 }, () => ({ ...big, type: 'track', properties: { blob: 'x'.repeat(30 * 1024) } })),
    };
    expect(await postSegment(t.url, '/v1/batch', batch, { key: ws.secretKey })).toMatchObject({
      status: 400,
      body: { ok: false, error: 'too_many_items' },
    });
    const oneOver = {
      batch: [
        { type: 'track', userId: 'a', event: 'Signed Up' },
        { ...big, type: 'track' },
      ],
    };
    expect(await postSegment(t.url, '/v1/batch', oneOver, { key: ws.secretKey })).toMatchObject({
      status: 400,
      body: { error: 'invalid_field', message: expect.stringContaining('batch[1]') },
    });
    expect(await postSegment(t.url, '/v1/track', { userId: 'a', event: 'Signed Up' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_key' },
    });
    expect(
      await postSegment(t.url, '/v1/track', { userId: 'a', event: 'Signed Up' }, { key: 'sk_live_nothing' }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_key' } });
    expect(
      await postSegment(t.url, '/v1/track', { userId: 'a', event: 'Signed Up' }, { key: 'wk_nothing' }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_key' } });
    expect(
      await postSegment(t.url, '/v1/trak', { userId: 'a', event: 'Signed Up' }, { key: ws.secretKey }),
    ).toMatchObject({ status: 404, body: { error: 'unknown_action' } });
  });

  it('a call that cannot be recorded answers 200 with its refusal, is counted in the heartbeat and /metrics by code, and keeps the rest of its batch', async () => {
    const before = await scrape();
    const lone = await postSegment(t.url, '/v1/track', { event: 'Signed Up' }, { key: ws.secretKey });
    expect(lone).toMatchObject({
      status: 200,
      body: { success: true, ok: false, error: 'no_identity', message: expect.any(String) },
    });
    const batch = await postSegment(
      t.url,
      '/v1/batch',
      {
        batch: [
          { type: 'track', userId: 'b-1', event: 'Signed Up' },
          { type: 'page' },
          { type: 'identify', userId: 'b-1', traits: { plan: 'pro' } },
        ],
      },
      { key: ws.secretKey },
    );
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ success: true, ok: false, error: 'partial_failure' });
    expect(
      batch.body.results.map((r: { ok: boolean; status?: string; error?: string }) => r.status ?? r.error),
    ).toEqual(['recorded', 'no_identity', 'linked']);
    const after = await scrape();
    expect(
      metric(after, 'lifeline_events_total{door="segment",outcome="no_identity"}') -
        metric(before, 'lifeline_events_total{door="segment",outcome="no_identity"}'),
    ).toBe(2);
    expect(
      metric(after, 'lifeline_events_total{door="segment",outcome="accepted"}') -
        metric(before, 'lifeline_events_total{door="segment",outcome="accepted"}'),
    ).toBe(2);
    await t.app.get(HeartbeatService).flush();
    const rows = (await t.gql('{ heartbeat { action answer origin count } }', {}, ws.secretKey)).data.heartbeat;
    expect(rows).toContainEqual({ action: 'event', answer: 'no_identity', origin: 'server', count: 2 });
    expect(rows).toContainEqual({ action: 'identify', answer: 'linked', origin: 'server', count: expect.any(Number) });
  });

  it("a public key acts under the website rules: the tag's names only, the named sites when an Origin is sent, no ids told", async () => {
    const builtIn = await postSegment(
      t.url,
      '/v1/track',
      { anonymousId: 'v-1', event: 'Download' },
      { key: ws.publicKey },
    );
    expect(builtIn).toMatchObject({ status: 200, body: { success: true, ok: true, status: 'recorded' } });
    expect(builtIn.body.id).toBeUndefined();
    const custom = await postSegment(
      t.url,
      '/v1/track',
      { anonymousId: 'v-1', event: 'Report Built' },
      { key: ws.publicKey, headers: { origin: 'https://shop.example.com' } },
    );
    expect(custom).toMatchObject({ status: 200, body: { success: true, ok: false, error: 'unknown_event' } });
    expect(custom.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    const elsewhere = await postSegment(
      t.url,
      '/v1/track',
      { anonymousId: 'v-1', event: 'Signed Up' },
      { key: ws.publicKey, headers: { origin: 'https://elsewhere.example' } },
    );
    expect(elsewhere).toMatchObject({ status: 403, body: { error: 'origin_not_allowed' } });
    const secretInBrowser = await postSegment(
      t.url,
      '/v1/track',
      { anonymousId: 'v-1', event: 'Signed Up' },
      { key: ws.secretKey, headers: { origin: 'https://shop.example.com' } },
    );
    expect(secretInBrowser).toMatchObject({ status: 403, body: { error: 'use_the_public_key_from_browsers' } });
    await t.app.get(HeartbeatService).flush();
    const rows = (await t.gql('{ heartbeat { action answer origin count } }', {}, ws.secretKey)).data.heartbeat;
    expect(rows).toContainEqual({
      action: 'event',
      answer: 'unknown_event',
      origin: 'https://shop.example.com',
      count: 1,
    });
  });

  it("429 when limited: a public key spends its visitor's allowance", async () => {
    const other = await t.workspace();
    const answers: number[] = [];
    for (let i = 0; i < 61; i++)
      answers.push(
        (await postSegment(t.url, '/v1/identify', { anonymousId: `v-${i}` }, { key: other.publicKey })).status,
      );
    expect(answers.slice(0, 60).every((s) => s === 200)).toBe(true);
    const limited = await postSegment(t.url, '/v1/identify', { anonymousId: 'v-x' }, { key: other.publicKey });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('maps each kind of call: identify traits, page and screen, group and alias, corrected time', async () => {
    const key = { key: ws.secretKey };
    const sentAt = new Date(Date.now() + 3_600_000); // a client clock an hour fast
    const stamped = new Date(sentAt.getTime() - 2_000);
    await postSegment(
      t.url,
      '/v1/batch',
      {
        sentAt: sentAt.toISOString(),
        batch: [
          {
            type: 'identify',
            userId: 'm-1',
            anonymousId: 'anon-m1',
            traits: { email: 'm1@example.com', firstName: 'Grace', lastName: 'Hopper', title: 'Admiral' },
          },
          {
            type: 'page',
            anonymousId: 'anon-m1',
            name: 'Docs',
            properties: { path: '/docs' },
            context: { campaign: { source: 'newsletter', name: 'spring' } },
            timestamp: stamped.toISOString(),
          },
          { type: 'screen', userId: 'm-1', name: 'Settings' },
          { type: 'group', userId: 'm-1', groupId: 'acme', traits: { name: 'Acme', employees: 50 } },
          { type: 'alias', userId: 'm-1', previousId: 'anon-old' },
          { type: 'track', userId: 'm-1', event: 'Order Completed', properties: { total: 99 } },
        ],
      },
      key,
    );
    const [person] = await t.db.query(
      `SELECT p.name, p.email, p.stage, p.fields, p.first_touch FROM people p JOIN identities i ON i.workspace_id = p.workspace_id AND i.person_id = p.id WHERE i.workspace_id = $1 AND i.kind = 'anon_id' AND i.value = 'anon-old'`,
      [ws.workspace.id],
    );
    expect(person).toMatchObject({
      name: 'Grace Hopper',
      email: 'm1@example.com',
      stage: 'purchaser',
      fields: { title: 'Admiral', group_id: 'acme', group_name: 'Acme', group_employees: 50 },
    });
    expect(person.first_touch).toMatchObject({ source: 'newsletter', campaign: 'spring', path: '/docs' });
    const events = await t.db.query(
      `SELECT type, value, detail, occurred_at FROM events WHERE workspace_id = $1 AND person_id = (SELECT person_id FROM identities WHERE workspace_id = $1 AND kind = 'account_id' AND value = 'm-1') AND type <> 'stage_changed' ORDER BY type, detail`,
      [ws.workspace.id],
    );
    expect(
      events.map((e: { type: string; value: string | null; detail: string | null }) => [e.type, e.value, e.detail]),
    ).toEqual([
      ['pageview', null, 'Docs'],
      ['pageview', null, 'Settings'],
      ['purchase', '99', null],
    ]);
    const docs = events.find((e: { detail: string }) => e.detail === 'Docs');
    expect(Math.abs(new Date(docs.occurred_at).getTime() - (Date.now() - 2_000))).toBeLessThan(5_000);
  });
});

describe('the OpenAPI document', () => {
  it('describes the Segment routes and their write key', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/v1/{call}'])).toEqual(expect.arrayContaining(['post', 'options']));
    // HTTP Basic, or writeKey in the body, which no security scheme can name: a request may carry no header.
    expect(doc.paths['/v1/{call}'].post.security).toEqual([{ writeKey: [] }, {}]);
    expect(doc.components.securitySchemes.writeKey).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(basicAuth('wk_x')).toBe(`Basic ${Buffer.from('wk_x:').toString('base64')}`);
  });
});
