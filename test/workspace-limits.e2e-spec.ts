// Limits the operator sets (docs/operations.md#limits, docs/graphql.md#limits): every limit of the spec's table is
// the default, a deployment-wide default comes from its RATE_LIMIT_* setting, the operator's override for one
// workspace holds from that workspace's next post, and the reset puts the default back.
import { ADMIN_TOKEN, eventually, memberKey, useApp, useWorkspace } from './harness';

const SITE = 'https://shop.example.com';
// The deployment's own figure for the subscribe door: 3 per visitor IP instead of the spec's 20.
const t = useApp({ env: { RATE_LIMIT_WEBSITE_SUBSCRIBE: '3' } });
const ws = useWorkspace(t, { origins: [SITE] });

const LIMITS = `{ workspace { limits { limit perTenMinutes isDefault } } }`;
const SET = `mutation($workspace: String!, $limit: String!, $n: Int!) {
  setWorkspaceLimit(workspace: $workspace, limit: $limit, perTenMinutes: $n) { limit perTenMinutes isDefault } }`;
const RESET = `mutation($workspace: String!, $limit: String!) {
  resetWorkspaceLimit(workspace: $workspace, limit: $limit) { limit perTenMinutes isDefault } }`;

const post = (i: number, key = ws.secretKey) =>
  t.request('POST', '/api/v1/events', { key, body: { type: 'pageview', email: `p${i}@example.com` } });
const door = (action: string, body: unknown) =>
  t.request('POST', `/api/in/${ws.publicKey}/${action}`, { body, headers: { origin: SITE } });
const limitsOf = async (key = ws.secretKey) =>
  Object.fromEntries(
    ((await t.gql(LIMITS, {}, key)).data.workspace.limits as any[]).map((l) => [
      l.limit,
      [l.perTenMinutes, l.isDefault],
    ]),
  );
async function asOperator(query: string, variables: Record<string, unknown>) {
  const answer = await t.gql(query, variables, ADMIN_TOKEN);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
const events = async () =>
  Number((await t.db.query(`SELECT count(*) AS n FROM events WHERE workspace_id = $1`, [ws.workspace.id]))[0].n);

describe('the defaults', () => {
  it("are the spec's table, but for a limit the deployment sets (RATE_LIMIT_WEBSITE_SUBSCRIBE)", async () => {
    expect(await limitsOf()).toEqual({
      server_posts: [600, true],
      tool_calls: [600, true],
      automation_starts: [600, true],
      website_subscribe: [3, true],
      website_identify: [60, true],
      website_event: [240, true],
      website_support: [10, true],
    });
  });

  it("the deployment's default holds at the door: the fourth signup from one visitor is refused", async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    const signup = (i: number) =>
      door('subscribe', { email: `s${i}@example.com`, list: 'news', consent: { text: 'Yes.' } });
    for (let i = 0; i < 3; i++) expect((await signup(i)).status).toBe(200);
    const over = await signup(3);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      ok: false,
      error: 'rate_limited',
      message: expect.stringMatching(/^Over 3 posts/),
    });
  });
});

describe('an override', () => {
  it('takes effect at the next post, and the reset restores the spec figure', async () => {
    for (let i = 0; i < 5; i++) expect((await post(i)).status).toBe(200);
    const set = await asOperator(SET, { workspace: ws.workspace.slug, limit: 'server_posts', n: 3 });
    expect(set.setWorkspaceLimit).toContainEqual({ limit: 'server_posts', perTenMinutes: 3, isDefault: false });
    expect((await limitsOf()).server_posts).toEqual([3, false]);

    const before = await events();
    const over = await post(5);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      error: 'rate_limited',
      message: expect.stringMatching(/^Over 3 posts in ten minutes/),
    });
    expect(over.headers.get('ratelimit-policy')).toBe('3;w=600');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await events()).toBe(before); // nothing written

    const reset = await asOperator(RESET, { workspace: ws.workspace.id, limit: 'server_posts' });
    expect(reset.resetWorkspaceLimit).toContainEqual({ limit: 'server_posts', perTenMinutes: 600, isDefault: true });
    expect((await post(6)).status).toBe(200);
  });

  it('raised above the spec figure admits past it, and the reset brings back the 10th support post as the last', async () => {
    const support = (i: number) => door('support', { from: `h${i}@example.com`, message: 'Help?' });
    await asOperator(SET, { workspace: ws.workspace.slug, limit: 'website_support', n: 12 });
    for (let i = 0; i < 12; i++) expect((await support(i)).status).toBe(200);
    const over = await support(12);
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/^Over 12 posts/);
    await asOperator(RESET, { workspace: ws.workspace.slug, limit: 'website_support' });
    const refused = await support(13);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Over 10 posts/);
    expect(refused.headers.get('ratelimit-policy')).toBe('10;w=600');
  });

  it('holds for one workspace only', async () => {
    const other = await t.workspace();
    await asOperator(SET, { workspace: ws.workspace.id, limit: 'server_posts', n: 1 });
    expect((await post(0)).status).toBe(200);
    expect((await post(1)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await post(i, other.secretKey)).status).toBe(200);
    expect((await limitsOf(other.secretKey)).server_posts).toEqual([600, true]);
  });

  it('of the tool calls counts each JSON-RPC call against the new figure', async () => {
    await asOperator(SET, { workspace: ws.workspace.id, limit: 'tool_calls', n: 2 });
    const call = (id: number) =>
      t.request('POST', '/api/mcp', {
        key: ws.secretKey,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id, method: 'tools/list' },
      });
    expect((await call(1)).status).toBe(200);
    expect((await call(2)).status).toBe(200);
    const over = await call(3);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/^Over 2 posts/) });
  });
});

describe('refusals', () => {
  it.each([
    [{ limit: 'graphql', n: 5 }, /No limit is named "graphql": name one of server_posts/],
    [{ limit: 'server_posts', n: 0 }, /perTenMinutes must be a whole number from 1 to 10,000,000/],
    [{ limit: 'server_posts', n: 10_000_001 }, /whole number from 1 to 10,000,000/],
  ])('%j is refused with a sentence, and nothing changes', async (input, message) => {
    const answer = await t.gql(SET, { workspace: ws.workspace.slug, ...input }, ADMIN_TOKEN);
    expect(answer.errors?.[0]).toMatchObject({
      message: expect.stringMatching(message),
      extensions: { code: 'invalid_field' },
    });
    expect((await limitsOf()).server_posts).toEqual([600, true]);
  });

  it('an unknown workspace is refused naming it', async () => {
    const answer = await t.gql(SET, { workspace: 'no-such-place', limit: 'server_posts', n: 5 }, ADMIN_TOKEN);
    expect(answer.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/no-such-place/),
      extensions: { code: 'not_found' },
    });
  });

  it.each(['owner', 'admin', 'member'] as const)(
    'an %s is not the operator: refused, nothing changed',
    async (role) => {
      const key = role === 'owner' ? ws.secretKey : (await memberKey(t, ws, `${role}@example.com`, role)).secretKey;
      const set = await t.gql(SET, { workspace: ws.workspace.slug, limit: 'server_posts', n: 5 }, key);
      expect(set.errors?.[0]).toMatchObject({
        extensions: { code: 'forbidden' },
        message: expect.stringMatching(/ADMIN_TOKEN/),
      });
      const reset = await t.gql(RESET, { workspace: ws.workspace.slug, limit: 'server_posts' }, key);
      expect(reset.errors?.[0]).toMatchObject({ extensions: { code: 'forbidden' } });
      expect((await limitsOf()).server_posts).toEqual([600, true]);
    },
  );
});

describe('how close each key came', () => {
  it("shows each key's fullest window of the day against its figure, refusals counted", async () => {
    await asOperator(SET, { workspace: ws.workspace.id, limit: 'server_posts', n: 4 });
    for (let i = 0; i < 5; i++) await post(i);
    const usage = await eventually(async () => {
      const answer = await t.gql(
        `{ workspace { limitUsage { limit key keyHint used perTenMinutes share refused } } }`,
        {},
        ws.secretKey,
      );
      const rows = answer.data.workspace.limitUsage as any[];
      return rows.find((r) => r.limit === 'server_posts' && r.refused > 0);
    }, 15_000);
    expect(usage).toMatchObject({
      used: 4,
      perTenMinutes: 4,
      share: 1,
      refused: 1,
      keyHint: expect.stringMatching(/^sk_live_…/),
    });
  });
});
