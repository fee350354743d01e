// docs/client-package.md#the-client-package-lifelinesdk: every method of @lifeline/sdk against the running
// service. Each camelCase option is read back from what the service stored, proving that the wire
// names the client sends are the ones the server accepts.
import { freePort } from '@app/platform';
import { Lifeline } from '../libs/sdk/src';
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t);
let lifeline: Lifeline;
beforeEach(() => {
  lifeline = new Lifeline(ws.secretKey, { url: t.url });
});

const events = (type: string) =>
  t.db.query(`SELECT * FROM events WHERE workspace_id = $1 AND type = $2`, [ws.workspace.id, type]);
const identities = (personId: string) =>
  t.db.query(`SELECT kind, value FROM identities WHERE workspace_id = $1 AND person_id = $2 ORDER BY kind, value`, [
    ws.workspace.id,
    personId,
  ]);
const ANON = 'a'.repeat(32);

describe('track', () => {
  it('track(type, options): every option lands under its wire name', async () => {
    const answer = await lifeline.track('purchase', {
      email: 'ada@example.com',
      anonId: ANON,
      accountId: 'u-ada',
      value: 49,
      properties: { planName: 'pro' },
      occurredAt: new Date('2026-01-02T03:04:05.000Z'),
      expiresAt: new Date('2099-01-01T00:00:00.000Z'),
      idempotencyKey: 'order-1',
      detail: 'Pro, yearly',
      source: { path: '/pricing', utm: { source: 'news', campaign: 'spring' }, clickId: 'gclid-1' },
    });
    expect(answer).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
    if (!answer.ok) return;
    const [row] = await events('purchase');
    expect(row.person_id).toBe(answer.id);
    expect(new Date(row.occurred_at).toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(new Date(row.expires_at).toISOString()).toBe('2099-01-01T00:00:00.000Z');
    expect(Number(row.value)).toBe(49);
    expect(row.properties).toMatchObject({ planName: 'pro' });
    expect(row.detail).toBe('Pro, yearly');
    expect(row.source).toMatchObject({
      path: '/pricing',
      utm: { source: 'news', campaign: 'spring' },
      click_id: 'gclid-1',
    });
    expect(await identities(answer.id!)).toEqual([
      { kind: 'account_id', value: 'u-ada' },
      { kind: 'anon_id', value: ANON },
      { kind: 'email', value: 'ada@example.com' },
    ]);
    // The idempotency key arrived: a repeat writes nothing and answers the first answer.
    expect(await lifeline.track({ type: 'purchase', email: 'ada@example.com', idempotencyKey: 'order-1' })).toEqual(
      answer,
    );
    expect(await events('purchase')).toHaveLength(1);
  });

  it('track({type, ...}): the one-argument form, and source.anonId naming the visitor', async () => {
    const answer = await lifeline.track({ type: 'pageview', source: { anonId: ANON, path: '/' } });
    expect(answer).toMatchObject({ ok: true, status: 'recorded' });
    if (answer.ok) expect(await identities(answer.id!)).toEqual([{ kind: 'anon_id', value: ANON }]);
  });

  it('an event sent late whose expiresAt has passed answers expired, with no id', async () => {
    const answer = await lifeline.track('download', {
      email: 'ada@example.com',
      occurredAt: new Date('2020-01-01T00:00:00Z'),
      expiresAt: new Date('2020-02-01T00:00:00Z'),
    });
    expect(answer).toEqual({ ok: true, status: 'expired' });
  });

  it("a refusal carries the service's own code and sentence, with httpStatus", async () => {
    const raw = await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: {
        type: 'signup',
        email: 'ada@example.com',
        occurred_at: '2026-01-02T00:00:00Z',
        expires_at: '2026-01-01T00:00:00Z',
      },
    });
    const answer = await lifeline.track('signup', {
      email: 'ada@example.com',
      occurredAt: '2026-01-02T00:00:00Z',
      expiresAt: new Date('2026-01-01T00:00:00Z'),
    });
    expect(answer).toEqual({ ...raw.body, httpStatus: raw.status });
    expect(answer).toMatchObject({ ok: false, error: 'invalid_expiry', httpStatus: 400 });
  });
});

describe('identify, subscribe, support', () => {
  it('identify: created, then linked, then merged; name and fields land on the person', async () => {
    const created = await lifeline.identify({ anonId: ANON, name: 'Ada', fields: { jobTitle: 'CTO' } });
    expect(created).toMatchObject({ ok: true, status: 'created' });
    expect(await lifeline.identify({ anonId: ANON, email: 'ada@example.com' })).toMatchObject({
      ok: true,
      status: 'linked',
    });
    await lifeline.track('signup', { accountId: 'u-ada' });
    expect(await lifeline.identify({ email: 'ada@example.com', accountId: 'u-ada' })).toMatchObject({
      ok: true,
      status: 'merged',
    });
    const [person] = await t.db.query(
      `SELECT name, fields FROM people WHERE workspace_id = $1 AND merged_into IS NULL`,
      [ws.workspace.id],
    );
    expect(person).toEqual({ name: 'Ada', fields: { jobTitle: 'CTO' } });
  });

  it('subscribe: consent with grantedAt, sourceLabel and anonId land; a second is already_subscribed', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    const options = {
      email: 'ada@example.com',
      list: 'news',
      consent: { text: 'Send me the monthly news', ip: '203.0.113.7', grantedAt: new Date('2026-03-01T10:00:00.000Z') },
      anonId: ANON,
      sourceLabel: 'footer form',
    };
    const answer = await lifeline.subscribe(options);
    expect(answer).toMatchObject({ ok: true, status: 'subscribed' });
    const [row] = await t.db.query(
      `SELECT consent_text, consent_ip, granted_at, source_label, person_id FROM subscriptions WHERE workspace_id = $1`,
      [ws.workspace.id],
    );
    expect(row).toMatchObject({
      consent_text: 'Send me the monthly news',
      consent_ip: '203.0.113.7',
      source_label: 'footer form',
    });
    expect(new Date(row.granted_at).toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(await identities(row.person_id)).toContainEqual({ kind: 'anon_id', value: ANON });
    expect(await lifeline.subscribe(options)).toMatchObject({ ok: true, status: 'already_subscribed' });
    expect(await lifeline.subscribe({ ...options, list: 'nope' })).toMatchObject({
      ok: false,
      error: 'unknown_list',
      httpStatus: 400,
    });
  });

  it('support: recorded on the person named by from, with who, topic and version', async () => {
    const answer = await lifeline.support({
      message: 'It crashed on save',
      from: 'ada@example.com',
      who: 'Ada',
      topic: 'bug',
      version: '2.1.0',
    });
    expect(answer).toMatchObject({ ok: true, status: 'recorded' });
    const [row] = await events('support');
    expect(row.properties).toEqual({
      message: 'It crashed on save',
      from: 'ada@example.com',
      who: 'Ada',
      topic: 'bug',
      version: '2.1.0',
    });
    const [person] = await t.db.query(`SELECT name FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(person.name).toBe('Ada');
  });
});

describe('batch', () => {
  it('every item converted, one result per item in order', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    const answer = await lifeline.batch([
      { type: 'signup', email: 'ada@example.com', occurredAt: new Date('2026-01-01T00:00:00Z') },
      { type: 'identify', email: 'ada@example.com', anonId: ANON },
      { type: 'subscribe', email: 'ada@example.com', list: 'news', consent: 'Yes, the news' },
      { type: 'support', message: 'Hello', from: 'ada@example.com' },
    ]);
    expect(answer).toEqual({
      ok: true,
      results: [
        { index: 0, ok: true, status: 'recorded', id: expect.any(String) },
        { index: 1, ok: true, status: 'linked', id: expect.any(String) },
        { index: 2, ok: true, status: 'subscribed', id: expect.any(String) },
        { index: 3, ok: true, status: 'recorded', id: expect.any(String) },
      ],
    });
  });

  it('a batch refused in part: partial_failure, httpStatus 207, and the results', async () => {
    const answer = await lifeline.batch([{ type: 'signup', email: 'ada@example.com' }, { type: 'signup' }]);
    expect(answer).toMatchObject({ ok: false, error: 'partial_failure', httpStatus: 207 });
    expect(!answer.ok && answer.results).toEqual([
      { index: 0, ok: true, status: 'recorded', id: expect.any(String) },
      { index: 1, ok: false, error: 'no_identity', message: expect.any(String) },
    ]);
  });

  it('over 100 items is refused by the client, the same code the service would give', async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({ type: 'signup', email: `p${i}@example.com` }));
    const raw = await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events: items } });
    expect(raw.body.error).toBe('too_many_items');
    expect(await lifeline.batch(items)).toMatchObject({ ok: false, error: 'too_many_items' });
    expect(await events('signup')).toHaveLength(0);
  });
});

describe('messages', () => {
  beforeEach(async () => {
    await lifeline.track('signup', { email: 'ada@example.com' });
  });

  it('send, then list with every filter, then the thread', async () => {
    const first = await lifeline.messages.send({ to: 'ada@example.com', subject: 'Welcome', body: 'Hello there' });
    expect(first).toEqual({ ok: true, id: expect.stringMatching(/^msg_/) });
    const second = await lifeline.messages.send({ to: 'ada@example.com', subject: 'Again', body: 'Hello again' });
    expect(second).toMatchObject({ ok: true });

    const page = await lifeline.messages.list({
      person: 'ada@example.com',
      direction: 'out',
      since: new Date(Date.now() - 60_000),
      until: new Date(Date.now() + 60_000),
      limit: 1,
    });
    expect(page).toMatchObject({
      ok: true,
      messages: [{ subject: 'Again', direction: 'out', person: { email: 'ada@example.com' } }],
      nextCursor: expect.any(String),
    });
    if (!page.ok) return;
    const next = await lifeline.messages.list({ person: 'ada@example.com', limit: 1, cursor: page.nextCursor });
    expect(next).toMatchObject({ ok: true, messages: [{ subject: 'Welcome' }] });
    expect(await lifeline.messages.list({ direction: 'in' })).toEqual({ ok: true, messages: [] });

    const thread = await lifeline.messages.thread('ada@example.com');
    expect(thread).toMatchObject({
      ok: true,
      person: expect.stringMatching(/^per_/),
      messages: [{ subject: 'Welcome' }, { subject: 'Again' }],
    });
    if (thread.ok) expect(await lifeline.messages.thread(thread.person)).toEqual(thread);
  });

  it('refusals pass through: not_engaged 422, invalid_field for a bad limit, no_such_person 404', async () => {
    await lifeline.track('pageview', { email: 'lurker@example.com' });
    const raw = await t.request('POST', '/api/v1/messages', {
      key: ws.secretKey,
      body: { to: 'lurker@example.com', subject: 'Hi', body: 'Hello' },
    });
    expect(await lifeline.messages.send({ to: 'lurker@example.com', subject: 'Hi', body: 'Hello' })).toEqual({
      ...raw.body,
      httpStatus: 422,
    });
    expect(await lifeline.messages.list({ limit: 500 })).toMatchObject({
      ok: false,
      error: 'invalid_field',
      httpStatus: 400,
    });
    expect(await lifeline.messages.thread('nobody@example.com')).toMatchObject({
      ok: false,
      error: 'no_such_person',
      httpStatus: 404,
    });
  });
});

describe('keys and the network', () => {
  it("an unknown secret key is the service's invalid_key, 401, not retried", async () => {
    const stranger = new Lifeline('sk_live_00000000000000000000000000000000', { url: t.url });
    expect(await stranger.track('signup', { email: 'ada@example.com' })).toMatchObject({
      ok: false,
      error: 'invalid_key',
      httpStatus: 401,
    });
  });

  it('nothing listening: network_error after three attempts, never a rejection', async () => {
    const closed = new Lifeline(ws.secretKey, { url: `http://127.0.0.1:${await freePort()}` });
    expect(await closed.messages.list()).toMatchObject({ ok: false, error: 'network_error', httpStatus: 0 });
  });
});
