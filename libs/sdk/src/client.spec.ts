// docs/client-package.md: construction, wire names and answers, with a
// capturing fetch. Retries and timeouts are in transport.spec.ts.
import { Lifeline } from './client';
import { capturingFetch, Reply } from './testing/capturing-fetch';
import type { BatchItem } from './types';

const KEY = 'sk_live_0123456789abcdefghijklmnopqrstuv';
const URL = 'https://lifeline.example.com';
const OK: Reply = { status: 200, body: { ok: true, status: 'recorded', id: 'per_1' } };

function client(...replies: Reply[]) {
  const captured = capturingFetch(...(replies.length ? replies : [OK]));
  return { lifeline: new Lifeline(KEY, { url: URL, fetch: captured.fetch }), calls: captured.calls };
}

describe('construction: the only throws', () => {
  it.each([undefined, null, '', '   ', 42])('no key (%p) throws, asking for the secret key', (key) => {
    expect(() => new Lifeline(key as never)).toThrow(/needs your secret key \(sk_live_/);
  });

  it('a public key is refused by name, saying it belongs in the tag', () => {
    expect(() => new Lifeline('wk_0123456789abcdefghijklmn')).toThrow(
      /public key \(wk_…\): public keys belong in the website tag/,
    );
  });

  it.each(['sk_test_123', 'pk_live_123', 'Bearer sk_live_123'])(
    'anything that is not a secret key (%s) is refused',
    (key) => {
      expect(() => new Lifeline(key)).toThrow(/not a secret key: pass the key beginning sk_live_/);
    },
  );

  it('a secret key constructs, with no request made', () => {
    const { calls } = client();
    expect(calls).toHaveLength(0);
  });
});

describe('wire names: camelCase options become the snake_case fields', () => {
  const occurredAt = new Date('2026-05-01T12:00:00.000Z');
  const expiresAt = new Date('2026-06-01T00:00:00.000Z');
  const options = {
    email: 'ada@example.com',
    anonId: 'a'.repeat(32),
    accountId: 'u-1',
    value: 49,
    properties: { planName: 'pro', nested: { keepMe: true } },
    occurredAt,
    expiresAt,
    idempotencyKey: 'order-7',
    detail: 'Pro, yearly',
    source: {
      path: '/pricing',
      referrer: 'https://news.example.com/x',
      os: 'mac',
      anonId: 'b'.repeat(32),
      clickId: 'gclid-1',
      utm: { source: 'news', campaign: 'spring' },
    },
  };
  const wire = {
    type: 'purchase',
    email: 'ada@example.com',
    anon_id: 'a'.repeat(32),
    account_id: 'u-1',
    value: 49,
    properties: { planName: 'pro', nested: { keepMe: true } },
    occurred_at: '2026-05-01T12:00:00.000Z',
    expires_at: '2026-06-01T00:00:00.000Z',
    idempotency_key: 'order-7',
    detail: 'Pro, yearly',
    source: {
      path: '/pricing',
      referrer: 'https://news.example.com/x',
      os: 'mac',
      anon_id: 'b'.repeat(32),
      click_id: 'gclid-1',
      utm: { source: 'news', campaign: 'spring' },
    },
  };

  it('track(type, options) posts one event with every field converted; properties keep their own keys', async () => {
    const { lifeline, calls } = client();
    await lifeline.track('purchase', options);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: `${URL}/api/v1/events`, method: 'POST' });
    expect(calls[0].body).toEqual(wire);
  });

  it('track({type, ...}) posts the same body as the two-argument form', async () => {
    const { lifeline, calls } = client();
    await lifeline.track({ type: 'purchase', ...options });
    expect(calls[0].body).toEqual(wire);
  });

  it('dates may be ISO strings, sent as written; undefined options are left out', async () => {
    const { lifeline, calls } = client();
    await lifeline.track('signup', { email: 'ada@example.com', occurredAt: '2026-05-01T12:00:00Z', anonId: undefined });
    expect(calls[0].body).toEqual({ type: 'signup', email: 'ada@example.com', occurred_at: '2026-05-01T12:00:00Z' });
  });

  it('an invalid Date is sent as its own words, for the service to refuse by name', async () => {
    const { lifeline, calls } = client();
    await lifeline.track('signup', { email: 'ada@example.com', expiresAt: new Date('nope') });
    expect(calls[0].body).toMatchObject({ expires_at: 'Invalid Date' });
  });

  it('identify posts type identify, with fields as given', async () => {
    const { lifeline, calls } = client();
    await lifeline.identify({
      email: 'ada@example.com',
      accountId: 'u-1',
      name: 'Ada',
      fields: { jobTitle: 'CTO', seats: 3, old: null },
    });
    expect(calls[0].body).toEqual({
      type: 'identify',
      email: 'ada@example.com',
      account_id: 'u-1',
      name: 'Ada',
      fields: { jobTitle: 'CTO', seats: 3, old: null },
    });
  });

  it("subscribe posts type subscribe: sourceLabel, and the consent object's grantedAt", async () => {
    const { lifeline, calls } = client();
    await lifeline.subscribe({
      email: 'ada@example.com',
      list: 'news',
      consent: { text: 'Send me the newsletter', ip: '203.0.113.7', grantedAt: new Date('2026-05-01T00:00:00.000Z') },
      anonId: 'c'.repeat(32),
      sourceLabel: 'footer form',
    });
    expect(calls[0].body).toEqual({
      type: 'subscribe',
      email: 'ada@example.com',
      list: 'news',
      consent: { text: 'Send me the newsletter', ip: '203.0.113.7', granted_at: '2026-05-01T00:00:00.000Z' },
      anon_id: 'c'.repeat(32),
      source_label: 'footer form',
    });
  });

  it('subscribe sends consent given as a string untouched', async () => {
    const { lifeline, calls } = client();
    await lifeline.subscribe({ email: 'ada@example.com', list: 'news', consent: 'Yes please' });
    expect(calls[0].body).toEqual({ type: 'subscribe', email: 'ada@example.com', list: 'news', consent: 'Yes please' });
  });

  it('support posts type support with from, who, topic, version and anonId', async () => {
    const { lifeline, calls } = client();
    await lifeline.support({
      message: 'It crashed',
      from: 'ada@example.com',
      who: 'Ada',
      topic: 'bug',
      version: '2.1.0',
      anonId: 'd'.repeat(32),
    });
    expect(calls[0].body).toEqual({
      type: 'support',
      message: 'It crashed',
      from: 'ada@example.com',
      who: 'Ada',
      topic: 'bug',
      version: '2.1.0',
      anon_id: 'd'.repeat(32),
    });
  });

  it("an action's own type wins over a type in its options", async () => {
    const { lifeline, calls } = client();
    await lifeline.identify({ type: 'signup', email: 'ada@example.com' } as never);
    expect(calls[0].body).toMatchObject({ type: 'identify' });
  });

  it('batch posts {events: [...]} with every item converted, in order', async () => {
    const { lifeline, calls } = client({ status: 200, body: { ok: true, results: [] } });
    await lifeline.batch([
      { type: 'signup', email: 'ada@example.com', occurredAt },
      { type: 'identify', anonId: 'e'.repeat(32), email: 'ada@example.com' },
      { type: 'subscribe', email: 'ada@example.com', list: 'news', consent: { text: 'Yes', grantedAt: occurredAt } },
      { type: 'support', message: 'Hi', from: 'ada@example.com' },
    ]);
    expect(calls[0]).toMatchObject({ url: `${URL}/api/v1/events`, method: 'POST' });
    expect(calls[0].body).toEqual({
      events: [
        { type: 'signup', email: 'ada@example.com', occurred_at: '2026-05-01T12:00:00.000Z' },
        { type: 'identify', anon_id: 'e'.repeat(32), email: 'ada@example.com' },
        {
          type: 'subscribe',
          email: 'ada@example.com',
          list: 'news',
          consent: { text: 'Yes', granted_at: '2026-05-01T12:00:00.000Z' },
        },
        { type: 'support', message: 'Hi', from: 'ada@example.com' },
      ],
    });
  });

  it('messages.send posts to, subject and body to /api/v1/messages', async () => {
    const { lifeline, calls } = client({ status: 200, body: { ok: true, id: 'msg_1' } });
    await lifeline.messages.send({ to: 'ada@example.com', subject: 'Hi', body: 'Hello there' });
    expect(calls[0]).toMatchObject({
      url: `${URL}/api/v1/messages`,
      method: 'POST',
      body: { to: 'ada@example.com', subject: 'Hi', body: 'Hello there' },
    });
  });

  it('messages.list is a GET with the query in the address: dates as ISO, limit as a number', async () => {
    const { lifeline, calls } = client({ status: 200, body: { ok: true, messages: [] } });
    await lifeline.messages.list({
      since: new Date('2026-01-01T00:00:00.000Z'),
      until: '2026-02-01',
      person: 'ada@example.com',
      direction: 'out',
      limit: 20,
      cursor: 'abc',
    });
    const url = new globalThis.URL(calls[0].url);
    expect(calls[0]).toMatchObject({ method: 'GET', body: undefined });
    expect(url.pathname).toBe('/api/v1/messages');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      since: '2026-01-01T00:00:00.000Z',
      until: '2026-02-01',
      person: 'ada@example.com',
      direction: 'out',
      limit: '20',
      cursor: 'abc',
    });
  });

  it('messages.list with no query asks for the first page', async () => {
    const { lifeline, calls } = client({ status: 200, body: { ok: true, messages: [] } });
    await lifeline.messages.list();
    expect(calls[0].url).toBe(`${URL}/api/v1/messages`);
  });

  it("messages.thread GETs the person's messages, the id or email encoded in the path", async () => {
    const { lifeline, calls } = client({ status: 200, body: { ok: true, person: 'per_1', messages: [] } });
    await lifeline.messages.thread('ada+news@example.com');
    expect(calls[0]).toMatchObject({ url: `${URL}/api/v1/people/ada%2Bnews%40example.com/messages`, method: 'GET' });
  });

  it('sends the secret key as a bearer, and a JSON content type only with a body', async () => {
    const { lifeline, calls } = client();
    await lifeline.track('signup', { email: 'ada@example.com' });
    await lifeline.messages.list();
    expect(calls[0].headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(calls[1].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(calls[1].headers['content-type']).toBeUndefined();
  });

  it('the url option may end with a slash', async () => {
    const captured = capturingFetch(OK);
    await new Lifeline(KEY, { url: `${URL}//`, fetch: captured.fetch }).track('signup', { email: 'ada@example.com' });
    expect(captured.calls[0].url).toBe(`${URL}/api/v1/events`);
  });

  it('without a url option, LIFELINE_URL is used', async () => {
    const captured = capturingFetch(OK);
    process.env.LIFELINE_URL = 'http://lifeline.internal:4000';
    try {
      await new Lifeline(KEY, { fetch: captured.fetch }).track('signup', { email: 'ada@example.com' });
    } finally {
      delete process.env.LIFELINE_URL;
    }
    expect(captured.calls[0].url).toBe('http://lifeline.internal:4000/api/v1/events');
  });
});

describe("answers: the route's own words, untouched", () => {
  it('a success resolves to the answer as sent', async () => {
    const { lifeline } = client({ status: 200, body: { ok: true, status: 'merged', id: 'per_9' } });
    expect(await lifeline.identify({ email: 'ada@example.com' })).toEqual({ ok: true, status: 'merged', id: 'per_9' });
  });

  it("a refusal carries the route's code and sentence untouched, plus httpStatus", async () => {
    const { lifeline } = client({
      status: 422,
      body: { ok: false, error: 'not_engaged', message: 'Email goes only to people who bought.' },
    });
    expect(await lifeline.messages.send({ to: 'x@example.com', subject: 'Hi', body: 'Hello' })).toEqual({
      ok: false,
      error: 'not_engaged',
      message: 'Email goes only to people who bought.',
      httpStatus: 422,
    });
  });

  it.each([undefined, '', '  '])('a code without a sentence (%p) gets one naming the code', async (message) => {
    const { lifeline } = client({
      status: 400,
      body: { ok: false, error: 'brand_new_code', ...(message === undefined ? {} : { message }) },
    });
    const answer = await lifeline.track('signup', { email: 'ada@example.com' });
    expect(answer).toMatchObject({ ok: false, error: 'brand_new_code', httpStatus: 400 });
    expect(!answer.ok && answer.message).toMatch(/brand_new_code/);
  });

  it("a batch refused in part carries partial_failure and every item's result", async () => {
    const results = [
      { index: 0, ok: true, status: 'recorded', id: 'per_1' },
      { index: 1, ok: false, error: 'no_identity', message: 'Name the person.' },
    ];
    const { lifeline } = client({
      status: 207,
      body: { ok: false, error: 'partial_failure', message: 'Some items were refused.', results },
    });
    expect(await lifeline.batch([{ type: 'signup', email: 'a@example.com' }, { type: 'signup' }])).toEqual({
      ok: false,
      error: 'partial_failure',
      message: 'Some items were refused.',
      httpStatus: 207,
      results,
    });
  });

  it('a body that is not JSON resolves to invalid_response with the status', async () => {
    const { lifeline } = client({ status: 200, text: '<html>hello</html>' });
    expect(await lifeline.track('signup', { email: 'ada@example.com' })).toMatchObject({
      ok: false,
      error: 'invalid_response',
      httpStatus: 200,
    });
  });

  it('JSON that is not a Lifeline answer resolves to invalid_response', async () => {
    const { lifeline } = client({ status: 404, body: { statusCode: 404, message: 'Cannot POST' } });
    expect(await lifeline.track('signup', { email: 'ada@example.com' })).toMatchObject({
      ok: false,
      error: 'invalid_response',
      httpStatus: 404,
    });
  });
});

describe('never throws, never rejects', () => {
  it('options that cannot be written as JSON resolve to invalid_json, and nothing is sent', async () => {
    const { lifeline, calls } = client();
    const properties: Record<string, unknown> = {};
    properties.self = properties;
    expect(await lifeline.track('signup', { email: 'ada@example.com', properties })).toMatchObject({
      ok: false,
      error: 'invalid_json',
      httpStatus: 0,
    });
    expect(await lifeline.track('signup', { email: 'ada@example.com', value: 10n as never })).toMatchObject({
      ok: false,
      error: 'invalid_json',
    });
    expect(calls).toHaveLength(0);
  });

  it('a batch over 100 items is refused here with too_many_items, and nothing is sent', async () => {
    const { lifeline, calls } = client();
    const items: BatchItem[] = Array.from({ length: 101 }, (_, i) => ({ type: 'signup', email: `p${i}@example.com` }));
    expect(await lifeline.batch(items)).toMatchObject({ ok: false, error: 'too_many_items', httpStatus: 0 });
    expect(calls).toHaveLength(0);
    await lifeline.batch(items.slice(0, 100));
    expect(calls).toHaveLength(1);
  });

  it('a batch that is not an array is refused here, unsent', async () => {
    const { lifeline, calls } = client();
    expect(await lifeline.batch(null as never)).toMatchObject({ ok: false, error: 'invalid_json' });
    expect(calls).toHaveLength(0);
  });

  it('odd arguments from plain JavaScript still resolve', async () => {
    const { lifeline, calls } = client({
      status: 400,
      body: { ok: false, error: 'unknown_event', message: 'Name the event in type.' },
    });
    await expect(lifeline.track(null as never)).resolves.toMatchObject({ ok: false, error: 'unknown_event' });
    await expect(lifeline.identify(undefined as never)).resolves.toMatchObject({ ok: false });
    await expect(lifeline.messages.list(42 as never)).resolves.toMatchObject({ ok: false });
    await expect(lifeline.messages.thread(undefined as never)).resolves.toMatchObject({ ok: false });
    expect(calls[0].body).toEqual({});
  });

  it('a runtime without fetch resolves to network_error naming the fetch option', async () => {
    const saved = globalThis.fetch;
    (globalThis as { fetch?: unknown }).fetch = undefined;
    try {
      const answer = await new Lifeline(KEY, { url: URL, retries: 1 }).track('signup', { email: 'ada@example.com' });
      expect(answer).toMatchObject({ ok: false, error: 'network_error', httpStatus: 0 });
      expect(!answer.ok && answer.message).toMatch(/fetch option/);
    } finally {
      globalThis.fetch = saved;
    }
  });
});
