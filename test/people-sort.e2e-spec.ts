// Sorting the people connection (docs/graphql.md#sorting-people): by last seen, revenue, stage, engaged and
// created, either way, paged by cursor without a person twice or left out, with the filters, and refused clearly.
import { peopleSort, sortedRead } from '@app/people';
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const gql = (query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, ws.secretKey);
const PEOPLE = `query($filter: PeopleFilter, $first: Int, $after: String, $sort: String, $direction: String) {
  people(filter: $filter, first: $first, after: $after, sort: $sort, direction: $direction) {
    totalCount edges { cursor node { email stage engaged revenue lastSeenAt } } pageInfo { hasNextPage endCursor } } }`;
type Node = { email: string; stage: string | null; engaged: boolean; revenue: number; lastSeenAt: string };
const nodes = (answer: any): Node[] => answer.data.people.edges.map((e: { node: Node }) => e.node);
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

/** Every page of `first`, following endCursor, as one list of emails. */
async function allPages(variables: Record<string, unknown>, first: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await gql(PEOPLE, { ...variables, first, after });
    expect(answer.errors).toBeUndefined();
    seen.push(...nodes(answer).map((n) => n.email));
    if (!answer.data.people.pageInfo.hasNextPage) return seen;
    after = answer.data.people.pageInfo.endCursor;
  }
  throw new Error('more pages than people');
}

describe('people(sort, direction)', () => {
  beforeEach(async () => {
    // Last seen: ann 5 hours ago, bea 4, cal 3, dan 2, eve 1 (their latest events).
    await post({
      events: [
        { type: 'pageview', email: 'ann@example.com', occurred_at: hoursAgo(6) },
        { type: 'pageview', email: 'ann@example.com', occurred_at: hoursAgo(5) },
        { type: 'signup', email: 'bea@example.com', occurred_at: hoursAgo(4) },
        { type: 'purchase', email: 'cal@example.com', value: 30, occurred_at: hoursAgo(3.5) },
        { type: 'purchase', email: 'cal@example.com', value: 19.99, occurred_at: hoursAgo(3) },
        { type: 'purchase', email: 'dan@example.com', value: 100, occurred_at: hoursAgo(2.5) },
        { type: 'refund', email: 'dan@example.com', value: 60, occurred_at: hoursAgo(2) },
        { type: 'pageview', email: 'eve@example.com', occurred_at: hoursAgo(1) },
      ],
    });
  });

  it('by last seen, latest first, or earliest first', async () => {
    const latest = nodes(await gql(PEOPLE, { sort: 'last_seen' }));
    expect(latest.map((n) => n.email)).toEqual(['eve', 'dan', 'cal', 'bea', 'ann'].map((n) => `${n}@example.com`));
    expect(new Date(latest[0].lastSeenAt).getTime()).toBeGreaterThan(new Date(latest[1].lastSeenAt).getTime());
    const earliest = nodes(await gql(PEOPLE, { sort: 'last_seen', direction: 'asc' }));
    expect(earliest.map((n) => n.email)).toEqual(latest.map((n) => n.email).reverse());
  });

  it('by revenue: what each paid, less refunds', async () => {
    const answer = nodes(await gql(PEOPLE, { sort: 'revenue' }));
    expect(answer.slice(0, 2).map((n) => [n.email, n.revenue])).toEqual([
      ['cal@example.com', 49.99],
      ['dan@example.com', 40],
    ]);
    expect(answer.slice(2).map((n) => n.revenue)).toEqual([0, 0, 0]);
  });

  it('by stage, along the ladder, and by engaged', async () => {
    const staged = nodes(await gql(PEOPLE, { sort: 'stage', direction: 'asc' }));
    expect(staged.map((n) => n.stage)).toEqual([null, null, 'account', 'purchaser', 'repeat']);
    const engaged = nodes(await gql(PEOPLE, { sort: 'engaged' }));
    expect(engaged.map((n) => n.engaged)).toEqual([true, true, true, false, false]);
  });

  it.each([
    ['last_seen', 'desc'],
    ['last_seen', 'asc'],
    ['revenue', 'desc'],
    ['revenue', 'asc'],
    ['stage', 'desc'],
    ['engaged', 'asc'],
    ['created', 'asc'],
    ['created', 'desc'],
  ])('paged by %s %s, every person once, in the order of one page', async (sort, direction) => {
    for (let i = 0; i < 7; i++) await post({ type: 'pageview', email: `tie${i}@example.com` });
    const whole = nodes(await gql(PEOPLE, { sort, direction, first: 100 })).map((n) => n.email);
    expect(whole).toHaveLength(12);
    expect(await allPages({ sort, direction }, 2)).toEqual(whole);
    expect(await allPages({ sort, direction }, 5)).toEqual(whole);
  });

  it('keeps the filters: stage, engaged and search', async () => {
    const paid = nodes(await gql(PEOPLE, { sort: 'revenue', direction: 'asc', filter: { engaged: true } }));
    expect(paid.map((n) => n.email)).toEqual(['bea@example.com', 'dan@example.com', 'cal@example.com']);
    const searched = await gql(PEOPLE, { sort: 'last_seen', filter: { search: 'an' } });
    expect(nodes(searched).map((n) => n.email)).toEqual(['dan@example.com', 'ann@example.com']);
    expect(searched.data.people.totalCount).toBe(2);
    const staged = nodes(await gql(PEOPLE, { sort: 'last_seen', filter: { stage: 'purchaser' } }));
    expect(staged.map((n) => n.email)).toEqual(['dan@example.com']);
  });

  it('refuses an order it does not know, naming the ones it does', async () => {
    const unknown = await gql(PEOPLE, { sort: 'height' });
    expect(unknown.errors![0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(unknown.errors![0].message).toMatch(/created, last_seen, revenue, stage, engaged/);
    const sideways = await gql(PEOPLE, { sort: 'revenue', direction: 'sideways' });
    expect(sideways.errors![0].message).toMatch(/direction must be asc or desc/);
  });

  it("refuses a cursor read in another order, and another page's cursor", async () => {
    const byRevenue = await gql(PEOPLE, { sort: 'revenue', first: 2 });
    const cursor = byRevenue.data.people.pageInfo.endCursor;
    const other = await gql(PEOPLE, { sort: 'last_seen', after: cursor });
    expect(other.errors![0].extensions.code).toBe('invalid_field');
    expect(other.errors![0].message).toMatch(/read sorted by revenue desc/);
    const newest = await gql(PEOPLE, { after: cursor });
    expect(newest.errors![0].message).toMatch(/read sorted by revenue desc/);
    const newestCursor = (await gql(PEOPLE, { first: 1 })).data.people.pageInfo.endCursor;
    const mixed = await gql(PEOPLE, { sort: 'revenue', after: newestCursor });
    expect(mixed.errors![0].message).toMatch(/not a cursor this API gave/);
  });

  it('last seen moves on with a later post; a merge adds up what both paid', async () => {
    expect((await post({ type: 'support', from: 'ann@example.com', message: 'Hello?' })).body.ok).toBe(true);
    expect(nodes(await gql(PEOPLE, { sort: 'last_seen', first: 1 }))[0].email).toBe('ann@example.com');
    await post({ type: 'purchase', anon_id: 'visitor-1', value: 5 });
    await post({ type: 'identify', anon_id: 'visitor-1', email: 'cal@example.com' });
    const cal = nodes(await gql(PEOPLE, { filter: { email: 'cal@example.com' } }))[0];
    expect(cal.revenue).toBe(54.99);
  });

  it.each([
    ['created', 'people_created'],
    ['last_seen', 'people_last_seen'],
    ['revenue', 'people_revenue'],
    ['stage', 'people_stage_rank'],
    ['engaged', 'people_engaged'],
  ])('%s reads its index in order, either way, from a position on', async (sort, index) => {
    for (const direction of ['desc', 'asc']) {
      const args: unknown[] = [ws.workspace.id];
      const where = ['workspace_id = $1', 'merged_into IS NULL'];
      const after = { key: sort === 'revenue' ? '10.5' : '3', id: 'per_x' };
      const sql = sortedRead({ columns: 'id', where, args, sort: peopleSort(sort, direction), after, limit: 26 });
      const plan = await t.db.transaction(async (m) => {
        await m.query('SET LOCAL enable_seqscan = off');
        await m.query('SET LOCAL enable_sort = off');
        return m.query(`EXPLAIN ${sql}`, args);
      });
      const text = plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(new RegExp(`Index (Only )?Scan (Backward )?using ${index} `));
      expect(text).not.toMatch(/Sort/);
    }
  });

  it("sorts only the workspace's own people", async () => {
    const other = await t.workspace();
    const answer = await t.gql(PEOPLE, { sort: 'revenue' }, other.secretKey);
    expect(answer.data.people).toMatchObject({ totalCount: 0, edges: [] });
  });
});
