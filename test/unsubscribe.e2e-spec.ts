// Consent both ways (docs/rest.md#unsubscribe-action-fields, docs/webhooks.md#triggers-and-bodies): coming off a list
// keeps the consent and records the withdrawal beside it, writes the timeline row unsubscribed, fires the trigger,
// and a later subscribe starts a new consent while the person's export keeps the earlier one.
import { UnsubscribeService } from '@app/events';
import { useApp, useWorkspace } from './harness';
import { happeningsOf } from './support/outbox';

const t = useApp();
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
