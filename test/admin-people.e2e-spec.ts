// The people connection, timelines, subscriptions and notes of the admin API (docs/graphql.md#people).
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const gql = (query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, ws.secretKey);
const PEOPLE = `query($filter: PeopleFilter, $first: Int, $after: String) {
  people(filter: $filter, first: $first, after: $after) { totalCount totalCountExact edges { cursor node { email name stage } } pageInfo { hasNextPage endCursor } } }`;
const emails = (answer: any) => answer.data.people.edges.map((e: { node: { email: string } }) => e.node.email);

describe('people(filter, first, after)', () => {
  beforeEach(async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    await post({
      type: 'identify',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      account_id: 'acct-ada',
      anon_id: 'anon-ada',
    });
    await post({ type: 'signup', email: 'bob@example.com' });
    await post({ type: 'identify', email: 'cy@example.com', name: 'Cyrus' });
    await post({ type: 'subscribe', email: 'cy@example.com', list: 'news', consent: 'Yes, send me news.' });
    await post({ type: 'pageview', anon_id: 'visitor-9' });
  });

  it('newest first, pages by cursor, with a total', async () => {
    const first = await gql(PEOPLE, { first: 2 });
    expect(emails(first)).toEqual([null, 'cy@example.com']);
    expect(first.data.people).toMatchObject({ totalCount: 4, totalCountExact: true, pageInfo: { hasNextPage: true } });
    const second = await gql(PEOPLE, { first: 2, after: first.data.people.pageInfo.endCursor });
    expect(emails(second)).toEqual(['bob@example.com', 'ada@example.com']);
    expect(second.data.people.pageInfo.hasNextPage).toBe(false);
    const fromEdge = await gql(PEOPLE, { first: 1, after: first.data.people.edges[0].cursor });
    expect(emails(fromEdge)).toEqual(['cy@example.com']);
  });

  it.each([
    [{ email: 'ADA@example.com' }, ['ada@example.com']],
    [{ name: 'love' }, ['ada@example.com']],
    [{ anonId: 'anon-ada' }, ['ada@example.com']],
    [{ accountId: 'acct-ada' }, ['ada@example.com']],
    [{ stage: 'account' }, ['bob@example.com']],
    [{ list: 'news' }, ['cy@example.com']],
    [{ engaged: true }, ['cy@example.com', 'bob@example.com']],
    [{ search: 'CYR' }, ['cy@example.com']],
    [{ search: 'acct-a' }, ['ada@example.com']],
    [{ search: 'visitor' }, [null]],
    [{ search: '%' }, []],
    [{ engaged: false, search: 'example' }, ['ada@example.com']],
  ])('filter %j', async (filter, expected) => {
    const answer = await gql(PEOPLE, { filter });
    expect(emails(answer)).toEqual(expected);
    expect(answer.data.people.totalCount).toBe(expected.length);
  });

  it('first is at most 100; a made-up cursor is refused', async () => {
    const tooMany = await gql(PEOPLE, { first: 101 });
    expect(tooMany.errors![0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect((await gql(PEOPLE, { after: 'bm9wZQ' })).errors![0].extensions.code).toBe('invalid_field');
  });

  it("another workspace's people are not found", async () => {
    const other = await t.workspace();
    const answer = await t.gql(PEOPLE, { filter: { email: 'ada@example.com' } }, other.secretKey);
    expect(answer.data.people).toMatchObject({ totalCount: 0, edges: [] });
  });
});

describe('a person', () => {
  const PERSON = `query($email: String, $first: Int, $after: String, $types: [String!]) { person(email: $email) {
    identities { kind value }
    subscriptions { list { address name subscriberCount } status consentText consent consentIp grantedAt }
    timeline(first: $first, after: $after, types: $types) { edges { cursor node { type detail properties } } pageInfo { hasNextPage endCursor } } } }`;
  const types = (answer: any) => answer.data.person.timeline.edges.map((e: { node: { type: string } }) => e.node.type);

  it('timeline newest first, paged, and filtered by type', async () => {
    for (let day = 1; day <= 5; day++)
      await post({
        type: 'pageview',
        email: 'tim@example.com',
        occurred_at: `2026-01-0${day}T00:00:00Z`,
        properties: { day },
      });
    await post({ type: 'purchase', email: 'tim@example.com', occurred_at: '2026-01-03T12:00:00Z' });
    const page = await gql(PERSON, { email: 'tim@example.com', first: 3, types: ['pageview'] });
    expect(page.data.person.timeline.edges.map((e: any) => e.node.properties.day)).toEqual([5, 4, 3]);
    expect(page.data.person.timeline.pageInfo.hasNextPage).toBe(true);
    const next = await gql(PERSON, {
      email: 'tim@example.com',
      first: 3,
      types: ['pageview'],
      after: page.data.person.timeline.pageInfo.endCursor,
    });
    expect(next.data.person.timeline.edges.map((e: any) => e.node.properties.day)).toEqual([2, 1]);
    expect(types(await gql(PERSON, { email: 'tim@example.com', types: ['purchase', 'stage_changed'] }))).toEqual([
      'stage_changed',
      'purchase',
    ]);
  });

  it('subscriptions carry the consent words verbatim, the IP and the time', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    const consent = {
      text: '  Yes — send me the “monthly” news.  ',
      ip: '203.0.113.7',
      granted_at: '2026-02-01T10:00:00.000Z',
    };
    await post({ type: 'subscribe', email: 'sub@example.com', list: 'news', consent });
    const [sub] = (await gql(PERSON, { email: 'sub@example.com' })).data.person.subscriptions;
    expect(sub).toEqual({
      list: { address: 'news', name: 'News', subscriberCount: 1 },
      status: 'subscribed',
      consentText: consent.text,
      consent,
      consentIp: '203.0.113.7',
      grantedAt: '2026-02-01T10:00:00.000Z',
    });
  });

  it('addNote puts a note on the timeline that moves no stage, engages nobody and fires nothing', async () => {
    await post({ type: 'pageview', email: 'noted@example.com' });
    const before = await t.db.query(`SELECT count(*)::int AS n FROM outbox WHERE workspace_id = $1`, [ws.workspace.id]);
    const note = await gql(
      'mutation { addNote(person: "noted@example.com", text: "Called: wants a demo.") { id type detail properties } }',
    );
    expect(note.data.addNote).toMatchObject({
      type: 'note',
      detail: 'Called: wants a demo.',
      properties: { author: 'owner@example.com' },
    });
    const answer = await gql(PERSON, { email: 'noted@example.com' });
    expect(types(answer)[0]).toBe('note');
    const after = await t.db.query(`SELECT count(*)::int AS n FROM outbox WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(after[0].n).toBe(before[0].n);
    const person = (await gql('{ person(email: "noted@example.com") { stage engaged } }')).data.person;
    expect(person).toEqual({ stage: null, engaged: false });
    expect(
      (await gql('mutation { addNote(person: "nobody@example.com", text: "x") { id } }')).errors![0].extensions.code,
    ).toBe('no_such_person');
    expect(
      (await gql('mutation { addNote(person: "noted@example.com", text: "   ") { id } }')).errors![0].extensions.code,
    ).toBe('invalid_field');
  });
});
