// Consent both ways (docs/rest.md#coming-off-a-list, docs/webhooks.md#triggers-and-bodies): coming off a list
// keeps the consent and records the withdrawal beside it, writes the timeline row unsubscribed, fires the trigger,
// and a later subscribe starts a new consent while the person's export keeps the earlier one.
import { UnsubscribeService } from '@app/events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Lifeline } from '../libs/sdk/src';
import { eventually, useApp, useWorkspace } from './harness';
import { happeningsOf } from './support/outbox';
import { receiver } from './support/receiver';

const t = useApp({ worker: true });
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const CONSENT = 'Send me the monthly letter.';
const subscribe = (email: string, list: string, consent = CONSENT) =>
  post({ type: 'subscribe', email, list, consent: { text: consent, ip: '198.51.100.7' } });
const makeList = async (address: string) =>
  (
    await t.gql(
      'mutation($input: CreateListInput!) { createList(input: $input) { id address } }',
      { input: { address, name: `The ${address}` } },
      ws.secretKey,
    )
  ).data.createList as { id: string; address: string };
const unsubscribeGql = (person: string, list: string) =>
  t.gql(
    'mutation($person: String!, $list: ID!) { unsubscribe(person: $person, list: $list) { status lists { address } } }',
    { person, list },
    ws.secretKey,
  );
const subscriptionsOf = async (email: string) =>
  (
    await t.gql(
      `query($email: String) { person(email: $email) { subscriptions { list { address } status consentText consentIp
        grantedAt withdrawnAt withdrawnVia withdrawnIp } } }`,
      { email },
      ws.secretKey,
    )
  ).data.person.subscriptions;
const timelineOf = async (email: string) =>
  (
    await t.gql(
      `query($email: String) { person(email: $email) { timeline(first: 50) { edges { node { type detail properties } } } } }`,
      { email },
      ws.secretKey,
    )
  ).data.person.timeline.edges.map((e: { node: unknown }) => e.node);

describe('GraphQL unsubscribe (withdrawnVia console)', () => {
  it('takes the person off the list, keeps the consent, writes the timeline row and the unsubscribed happening', async () => {
    const list = await makeList('letter');
    await subscribe('ada@example.com', 'letter');
    const answer = await unsubscribeGql('ada@example.com', list.id);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.unsubscribe).toEqual({ status: 'unsubscribed', lists: [{ address: 'letter' }] });
    const [sub] = await subscriptionsOf('ada@example.com');
    expect(sub).toMatchObject({
      list: { address: 'letter' },
      status: 'unsubscribed',
      consentText: CONSENT,
      consentIp: '198.51.100.7',
      withdrawnVia: 'console',
      withdrawnIp: null,
    });
    expect(Date.parse(sub.withdrawnAt)).toBeGreaterThan(Date.parse(sub.grantedAt) - 1);
    const rows = await timelineOf('ada@example.com');
    expect(rows[0]).toEqual({
      type: 'unsubscribed',
      detail: 'The letter',
      properties: { list: { address: 'letter', name: 'The letter' }, via: 'console' },
    });
    const happened = (await happeningsOf(t.db, ws.workspace.id)).filter((h) => h.kind === 'unsubscribed');
    expect(happened).toHaveLength(1);
    expect(happened[0].payload.data.unsubscribed).toEqual({
      list: { address: 'letter', name: 'The letter' },
      via: 'console',
    });
    expect(happened[0].payload.data.event).toMatchObject({ event: 'unsubscribed' });
  });

  it('answers not_subscribed a second time and writes nothing more', async () => {
    const list = await makeList('letter');
    await subscribe('ada@example.com', 'letter');
    await unsubscribeGql('ada@example.com', list.id);
    const again = await unsubscribeGql('ada@example.com', list.id);
    expect(again.data.unsubscribe).toEqual({ status: 'not_subscribed', lists: [] });
    expect((await happeningsOf(t.db, ws.workspace.id)).filter((h) => h.kind === 'unsubscribed')).toHaveLength(1);
    expect(
      (await timelineOf('ada@example.com')).filter((r: { type: string }) => r.type === 'unsubscribed'),
    ).toHaveLength(1);
  });

  it('refuses an unknown list and an unknown person, changing nothing', async () => {
    await makeList('letter');
    await subscribe('ada@example.com', 'letter');
    const noList = await unsubscribeGql('ada@example.com', 'list_nope');
    expect(noList.errors?.[0].extensions.code).toBe('unknown_list');
    const noPerson = await unsubscribeGql('nobody@example.com', 'list_nope');
    expect(noPerson.errors?.[0].extensions.code).toBe('no_such_person');
    expect((await subscriptionsOf('ada@example.com'))[0].status).toBe('subscribed');
  });
});

describe("messaging's withdraw API (UnsubscribeService)", () => {
  it('takes the person off every list at once, with the way and the ip', async () => {
    await makeList('letter');
    await makeList('news');
    const { body } = await subscribe('bo@example.com', 'letter');
    await subscribe('bo@example.com', 'news');
    const service = t.app.get(UnsubscribeService);
    const answer = await service.unsubscribe(
      ws.workspace.id,
      body.id,
      { all: true },
      { via: 'one_click', ip: '203.0.113.9' },
    );
    expect(answer.status).toBe('unsubscribed');
    expect(answer.lists.map((l) => l.address).sort()).toEqual(['letter', 'news']);
    const subs = await subscriptionsOf('bo@example.com');
    expect(
      subs.map((s: { status: string; withdrawnVia: string; withdrawnIp: string }) => [
        s.status,
        s.withdrawnVia,
        s.withdrawnIp,
      ]),
    ).toEqual([
      ['unsubscribed', 'one_click', '203.0.113.9'],
      ['unsubscribed', 'one_click', '203.0.113.9'],
    ]);
    const happened = (await happeningsOf(t.db, ws.workspace.id)).filter((h) => h.kind === 'unsubscribed');
    expect(happened.map((h) => h.payload.data.unsubscribed.via)).toEqual(['one_click', 'one_click']);
    const none = await service.unsubscribe(ws.workspace.id, body.id, { all: true }, { via: 'complaint' });
    expect(none).toMatchObject({ status: 'not_subscribed', lists: [] });
  });
});

describe('subscribing again after a withdrawal', () => {
  it('starts a new consent and the export keeps the earlier one with its withdrawal', async () => {
    const list = await makeList('letter');
    await subscribe('cy@example.com', 'letter', 'First words.');
    await unsubscribeGql('cy@example.com', list.id);
    const again = await subscribe('cy@example.com', 'letter', 'Second words.');
    expect(again.body).toMatchObject({ ok: true, status: 'subscribed' });
    const [sub] = await subscriptionsOf('cy@example.com');
    expect(sub).toMatchObject({
      status: 'subscribed',
      consentText: 'Second words.',
      withdrawnAt: null,
      withdrawnVia: null,
    });
    const exported = await t.request('GET', '/api/v1/people/cy@example.com/export', { key: ws.secretKey });
    expect(exported.status).toBe(200);
    expect(exported.body.subscriptions).toEqual([
      expect.objectContaining({
        list: 'letter',
        status: 'subscribed',
        consentText: 'Second words.',
        withdrawnAt: null,
      }),
    ]);
    expect(exported.body.earlierConsents).toEqual([
      expect.objectContaining({
        list: 'letter',
        consentText: 'First words.',
        consentIp: '198.51.100.7',
        withdrawnVia: 'console',
        withdrawnAt: expect.any(String),
        replacedAt: expect.any(String),
      }),
    ]);
  });
});

describe('the unsubscribe action on POST /api/v1/events (withdrawnVia api)', () => {
  it('answers unsubscribed, then not_subscribed; the consent stays and the withdrawal is beside it', async () => {
    await makeList('letter');
    const joined = await subscribe('ada@example.com', 'letter');
    const off = await post({ type: 'unsubscribe', email: 'ada@example.com', list: 'letter' });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ok: true, status: 'unsubscribed', id: joined.body.id });
    const again = await post({ type: 'unsubscribe', email: 'ADA@example.com', list: 'letter' });
    expect(again.body).toEqual({ ok: true, status: 'not_subscribed', id: joined.body.id });
    const [sub] = await subscriptionsOf('ada@example.com');
    expect(sub).toMatchObject({ status: 'unsubscribed', consentText: CONSENT, withdrawnVia: 'api', withdrawnIp: null });
    const exported = await t.request('GET', '/api/v1/people/ada@example.com/export', { key: ws.secretKey });
    expect(exported.body.subscriptions).toEqual([
      expect.objectContaining({
        list: 'letter',
        status: 'unsubscribed',
        consentText: CONSENT,
        consentIp: '198.51.100.7',
        withdrawnVia: 'api',
        withdrawnAt: expect.any(String),
      }),
    ]);
    const rows = (await timelineOf('ada@example.com')).filter((r: { type: string }) => r.type === 'unsubscribed');
    expect(rows).toEqual([
      {
        type: 'unsubscribed',
        detail: 'The letter',
        properties: { list: { address: 'letter', name: 'The letter' }, via: 'api' },
      },
    ]);
  });

  it('an email nobody has answers not_subscribed and makes no one', async () => {
    await makeList('letter');
    const answer = await post({ type: 'unsubscribe', email: 'stranger@example.com', list: 'letter' });
    expect(answer.body).toEqual({ ok: true, status: 'not_subscribed' });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM people WHERE workspace_id = $1`, [
      ws.workspace.id,
    ]);
    expect(n).toBe(0);
  });

  it('refuses unknown_list, invalid_email and a field it does not take, changing nothing', async () => {
    await makeList('letter');
    await subscribe('ada@example.com', 'letter');
    const cases: Array<[unknown, number, string]> = [
      [{ type: 'unsubscribe', email: 'ada@example.com', list: 'nope' }, 400, 'unknown_list'],
      [{ type: 'unsubscribe', email: 'ada@example.com' }, 400, 'unknown_list'],
      [{ type: 'unsubscribe', list: 'letter' }, 400, 'invalid_email'],
      [{ type: 'unsubscribe', email: 'not-an-address', list: 'letter' }, 400, 'invalid_email'],
      [{ type: 'unsubscribe', email: 'ada@example.com', list: 'letter', consent: 'x' }, 400, 'invalid_field'],
      [
        { type: 'unsubscribe', email: 'ada@example.com', list: 'letter', expires_at: '2030-01-01T00:00:00Z' },
        400,
        'invalid_field',
      ],
    ];
    for (const [body, status, error] of cases) {
      const answer = await post(body);
      expect([answer.status, answer.body.ok, answer.body.error]).toEqual([status, false, error]);
      expect(answer.body.message).toMatch(/\w.*\./);
    }
    expect((await subscriptionsOf('ada@example.com'))[0].status).toBe('subscribed');
  });

  it('in a batch each item answers for itself', async () => {
    await makeList('letter');
    const answer = await post({
      events: [
        { type: 'subscribe', email: 'bo@example.com', list: 'letter', consent: 'Yes.' },
        { type: 'unsubscribe', email: 'bo@example.com', list: 'letter' },
        { type: 'unsubscribe', email: 'bo@example.com', list: 'letter' },
        { type: 'unsubscribe', email: 'bo@example.com', list: 'nope' },
        { type: 'unsubscribe', email: 'bo', list: 'letter' },
      ],
    });
    expect(answer.status).toBe(207);
    expect(
      answer.body.results.map((r: { ok: boolean; status?: string; error?: string }) => r.status ?? r.error),
    ).toEqual(['subscribed', 'unsubscribed', 'not_subscribed', 'unknown_list', 'invalid_email']);
    expect((await subscriptionsOf('bo@example.com'))[0]).toMatchObject({ status: 'unsubscribed', withdrawnVia: 'api' });
  });

  it('is an action: GET /api/v1/events names it, its statuses and its fields, and reserves the name', async () => {
    const described = (await t.request('GET', '/api/v1/events', { key: ws.secretKey })).body;
    expect(described.actions).toContain('unsubscribe');
    expect(described.reservedNames).toContain('unsubscribe');
    expect(described.statuses.unsubscribe).toEqual(['unsubscribed', 'not_subscribed']);
    expect(Object.keys(described.fields.unsubscribe)).toEqual(['type', 'email', 'list']);
  });

  it('the client package: unsubscribe(options)', async () => {
    await makeList('letter');
    const lifeline = new Lifeline(ws.secretKey, { url: t.url });
    await lifeline.subscribe({ email: 'cy@example.com', list: 'letter', consent: 'Yes.' });
    expect(await lifeline.unsubscribe({ email: 'cy@example.com', list: 'letter' })).toMatchObject({
      ok: true,
      status: 'unsubscribed',
    });
    expect(await lifeline.unsubscribe({ email: 'cy@example.com', list: 'nope' })).toMatchObject({
      ok: false,
      error: 'unknown_list',
      httpStatus: 400,
    });
  });
});

describe('the unsubscribed trigger', () => {
  it('posts to a webhook endpoint that asked for it, with the list and how', async () => {
    const r = await receiver();
    const made = await t.gql(
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
      { input: { url: `${r.url}/hooks`, triggers: ['unsubscribed'] } },
      ws.secretKey,
    );
    expect(made.errors).toBeUndefined();
    await makeList('letter');
    await subscribe('ada@example.com', 'letter');
    await post({ type: 'unsubscribe', email: 'ada@example.com', list: 'letter' });
    await eventually(async () => r.received.length === 1);
    const [delivery] = r.received;
    expect(delivery.headers['x-service-event']).toBe('unsubscribed');
    expect(delivery.body).toMatchObject({
      type: 'unsubscribed',
      record: { kind: 'person', email: 'ada@example.com' },
      data: { list: { address: 'letter', name: 'The letter' }, via: 'api' },
    });
    await r.close();
  });

  it('starts an automation on that list, and one on any list, not one on another list', async () => {
    await makeList('letter');
    await makeList('news');
    const STATUS = 'mutation($id: ID!, $status: String!) { setAutomationStatus(id: $id, status: $status) { id } }';
    const automation = async (name: string, trigger: Record<string, unknown>) => {
      const made = await t.gql(
        'mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }',
        { input: { name, trigger, steps: [] } },
        ws.secretKey,
      );
      expect(made.errors).toBeUndefined();
      const id = made.data.createAutomation.automation.id as string;
      await t.gql(STATUS, { id, status: 'running' }, ws.secretKey);
      return id;
    };
    const letter = await automation('letter', { kind: 'unsubscribed', list: 'letter' });
    const any = await automation('any', { kind: 'unsubscribed' });
    const news = await automation('news', { kind: 'unsubscribed', list: 'news' });
    const runs = async (id: string) =>
      (await t.gql('query($id: ID!) { automation(id: $id) { runs { status log { line } } } }', { id }, ws.secretKey))
        .data.automation.runs as Array<{ status: string; log: Array<{ line: string }> }>;
    await subscribe('ada@example.com', 'letter');
    await post({ type: 'unsubscribe', email: 'ada@example.com', list: 'letter' });
    const [run] = await eventually(async () => {
      const found = await runs(letter);
      return found.length === 1 && found[0].status === 'finished' && found;
    });
    expect(run.log[0].line).toBe('started by unsubscribed letter');
    await eventually(async () => (await runs(any)).length === 1);
    expect(await runs(news)).toEqual([]);
    const refused = await t.gql(
      'mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }',
      { input: { name: 'x', trigger: { kind: 'unsubscribed', list: 'nope' }, steps: [] } },
      ws.secretKey,
    );
    expect(refused.errors?.[0].extensions.code).toBe('unknown_list');
  });
});

describe('the tool door', () => {
  it('unsubscribe takes the email off the list, and get_person shows the withdrawal', async () => {
    await makeList('letter');
    await subscribe('ada@example.com', 'letter');
    const client = new Client({ name: 'lifeline-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${ws.secretKey}` } },
      }),
    );
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: any;
        content: any[];
      };
    const off = await call('unsubscribe', { email: 'ada@example.com', list: 'letter' });
    expect(off.structuredContent).toMatchObject({ ok: true, status: 'unsubscribed' });
    expect((await call('unsubscribe', { email: 'ada@example.com', list: 'letter' })).structuredContent).toMatchObject({
      status: 'not_subscribed',
    });
    const unknown = await call('unsubscribe', { email: 'ada@example.com', list: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(unknown.content[0].text)).toMatchObject({ ok: false, error: 'unknown_list' });
    const person = await call('get_person', { email: 'ada@example.com' });
    expect(person.structuredContent.subscriptions).toEqual([
      expect.objectContaining({
        status: 'unsubscribed',
        consentText: CONSENT,
        withdrawnVia: 'api',
        withdrawnAt: expect.any(String),
      }),
    ]);
    await client.close();
  });
});

describe('a list counts who is on it, who waits and who left, and how', () => {
  it('subscribed, pending and unsubscribed counts, the withdrawals by via and the latest to leave', async () => {
    const letter = await makeList('letter');
    await t.gql(
      'mutation($id: ID!) { updateList(id: $id, doubleOptIn: true) { id } }',
      { id: letter.id },
      ws.secretKey,
    );
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await subscribe(email, 'letter');
    await t.gql(
      'mutation($id: ID!) { updateList(id: $id, doubleOptIn: false) { id } }',
      { id: letter.id },
      ws.secretKey,
    );
    for (const email of ['d@example.com', 'e@example.com', 'f@example.com']) await subscribe(email, 'letter');
    await unsubscribeGql('d@example.com', letter.id);
    await post({ type: 'unsubscribe', email: 'e@example.com', list: 'letter' });
    await post({ type: 'unsubscribe', email: 'a@example.com', list: 'letter' });
    const { data, errors } = await t.gql(
      `{ lists { address subscriberCount pendingCount unsubscribedCount withdrawnBy { via count }
         withdrawals(first: 5) { email withdrawnVia withdrawnAt } } }`,
      {},
      ws.secretKey,
    );
    expect(errors).toBeUndefined();
    const [list] = data.lists;
    expect(list).toMatchObject({ address: 'letter', subscriberCount: 1, pendingCount: 2, unsubscribedCount: 3 });
    expect(list.withdrawnBy).toEqual(
      expect.arrayContaining([
        { via: 'api', count: 2 },
        { via: 'console', count: 1 },
        { via: 'one_click', count: 0 },
      ]),
    );
    expect(list.withdrawals.map((w: { email: string; withdrawnVia: string }) => [w.email, w.withdrawnVia])).toEqual([
      ['a@example.com', 'api'],
      ['e@example.com', 'api'],
      ['d@example.com', 'console'],
    ]);
    // The pending one withdrawn fired nothing: two came off the list, not three.
    expect((await happeningsOf(t.db, ws.workspace.id)).filter((h) => h.kind === 'unsubscribed')).toHaveLength(2);
  });
});
