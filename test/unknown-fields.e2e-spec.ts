// A field the events endpoint or a website endpoint does not take is refused, never dropped
// (docs/rest.md#answers-and-refusals): a misspelt occurred_at would otherwise record the event now, at the
// wrong time. Segment's routes keep Segment's leniency: its calls carry fields of their own.
import { useApp, useWorkspace } from './harness';
import { postSegment } from './support/segment';

const SITE = 'https://shop.example.com';
const t = useApp();
const ws = useWorkspace(t, { origins: [SITE] });

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const door = (action: string, body: unknown) =>
  t.request('POST', `/api/in/${ws.publicKey}/${action}`, { body, headers: { origin: SITE } });
const count = async (table: string) =>
  Number((await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = $1`, [ws.workspace.id]))[0].n);

describe('the events endpoint', () => {
  it('refuses a misspelt occurred_at with invalid_field naming it and the field meant, and writes nothing', async () => {
    const answer = await post({ type: 'signup', email: 'ada@example.com', ocurred_at: '2024-05-01T12:00:00Z' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ok: false,
      error: 'invalid_field',
      message: expect.stringMatching(/"ocurred_at".*occurred_at/),
      field: 'ocurred_at',
      nearest: 'occurred_at',
    });
    expect(await count('people')).toBe(0);
    expect(await count('events')).toBe(0);
  });

  it('names the fields an item takes when no known one is near', async () => {
    const answer = await post({ type: 'identify', email: 'ada@example.com', plan: 'pro' });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('plan');
    expect(answer.body.nearest).toBeUndefined();
    expect(answer.body.message).toMatch(/"plan".*identify.*name.*fields/);
  });

  it('in a batch refuses only that item; the others are recorded', async () => {
    const answer = await post({
      events: [
        { type: 'signup', email: 'ada@example.com' },
        { type: 'subscribe', email: 'ada@example.com', list: 'news', consent: 'Yes.', lsit: 'news' },
      ],
    });
    expect(answer.status).toBe(207);
    expect(answer.body.results[0]).toMatchObject({ index: 0, ok: true, status: 'recorded' });
    expect(answer.body.results[1]).toMatchObject({
      index: 1,
      ok: false,
      error: 'invalid_field',
      field: 'lsit',
      nearest: 'list',
    });
    expect(await count('subscriptions')).toBe(0);
  });

  it('refuses a batch with a field beside events, whole', async () => {
    const answer = await post({ events: [{ type: 'signup', email: 'ada@example.com' }], sentAt: 'now' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_field', field: 'sentAt' });
    expect(await count('events')).toBe(0);
  });

  it('takes every field of every item, and null for any optional one', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    const source = { path: '/', referrer: 'https://example.org/a', os: 'mac', anon_id: 'a1', click_id: 'c' };
    const answer = await post({
      events: [
        {
          type: 'purchase',
          email: 'ada@example.com',
          anon_id: 'a1',
          account_id: 'u1',
          value: null,
          properties: { plan: 'pro' },
          occurred_at: '2026-05-01T12:00:00Z',
          expires_at: null,
          idempotency_key: 'o-1',
          detail: 'Pro plan',
          source,
        },
        {
          type: 'identify',
          email: 'ada@example.com',
          anon_id: null,
          account_id: 'u1',
          name: 'Ada',
          fields: {},
          source,
        },
        {
          type: 'subscribe',
          email: 'ada@example.com',
          list: 'news',
          consent: { text: 'Yes.' },
          anon_id: 'a1',
          source_label: 'footer',
          source,
        },
        {
          type: 'support',
          message: 'Hi',
          from: 'ada@example.com',
          who: 'Ada',
          topic: 't',
          version: '1',
          anon_id: 'a1',
          account_id: 'u1',
          source,
        },
      ],
    });
    expect(answer.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, true, true]);
  });
});

describe('the website endpoints', () => {
  it('refuse an unknown field with invalid_field naming the field meant', async () => {
    const answer = await door('event', { type: 'pageview', anon_id: 'a1', soruce: { path: '/' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_field', field: 'soruce', nearest: 'source' });
    expect(await count('events')).toBe(0);
  });

  it('refuse a type that is not the address’s action', async () => {
    const answer = await door('identify', { type: 'subscribe', email: 'ada@example.com' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_field', field: 'type' });
  });

  it('take the honeypot fields and the action’s own type', async () => {
    expect((await door('identify', { type: 'identify', email: 'ada@example.com', hp: '' })).body).toEqual({
      ok: true,
      status: 'created',
    });
    // a bot filled the hidden field: answered as usual and thrown away, whatever else it sent
    expect((await door('identify', { email: 'bot@example.com', website: 'x', botty: 1 })).body).toEqual({
      ok: true,
      status: 'linked',
    });
  });
});

it("Segment's routes keep Segment's leniency: a field Segment's spec does not name is ignored", async () => {
  const answer = await postSegment(
    t.url,
    '/v1/track',
    { userId: 'u-ada', event: 'Signed Up', integrations: { All: true }, somethingElse: 1 },
    { key: ws.secretKey },
  );
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ success: true, ok: true, status: 'recorded' });
});
