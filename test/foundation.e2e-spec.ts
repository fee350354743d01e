// Foundation: health, the error envelope, the GraphQL admin API and its key guard, the worker.
import { eventually, useApp } from './harness';
import { happeningsOf, isRelayed } from './support/outbox';

const t = useApp({ worker: true });

describe('GET /health', () => {
  it('answers 200 when the database and Redis answer', async () => {
    const answer = await t.request('GET', '/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, database: 'up', redis: 'up' });
  });
});

describe('one error envelope for every refusal', () => {
  it('an unknown address answers 404 not_found with a sentence', async () => {
    const answer = await t.request('GET', '/api/v1/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ ok: false, error: 'not_found' });
    expect(answer.body.message).toMatch(/\w+.*\./);
  });

  it('a body that is not JSON answers 400 invalid_json', async () => {
    const ws = await t.workspace();
    const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, raw: '{"type": ' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_json' });
  });

  it('a server body over 64 KB answers 413 too_large', async () => {
    const ws = await t.workspace();
    const big = JSON.stringify({ type: 'signup', email: 'a@b.co', properties: { pad: 'x'.repeat(70 * 1024) } });
    const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, raw: big });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ ok: false, error: 'too_large' });
  });
});

describe('the secret-key guard', () => {
  const query = '{ workspace { id slug } }';

  it('a missing bearer answers invalid_key', async () => {
    const answer = await t.request('POST', '/graphql', { body: { query } });
    expect(answer.body.errors[0].extensions.code).toBe('invalid_key');
  });

  it('an unknown key answers invalid_key', async () => {
    const result = await t.gql(query, {}, 'sk_live_00000000000000000000000000000000');
    expect(result.errors![0].extensions.code).toBe('invalid_key');
  });

  it('a public key used as a bearer answers invalid_key saying public keys belong in the tag', async () => {
    const ws = await t.workspace();
    const result = await t.gql(query, {}, ws.publicKey);
    expect(result.errors![0].extensions.code).toBe('invalid_key');
    expect(result.errors![0].message).toMatch(/public key.*tag/i);
  });

  it('a key acts as its member: the workspace query answers that workspace', async () => {
    const ws = await t.workspace();
    const result = await t.gql(query, {}, ws.secretKey);
    expect(result.data.workspace).toEqual(ws.workspace);
  });

  it('a key of a removed member answers no_longer_a_member', async () => {
    const ws = await t.workspace();
    const made = await t.gql<{ createKey: { secretKey: string } }>(
      'mutation { createKey(member: "dev@example.com") { secretKey } }',
      {},
      ws.secretKey,
    );
    const devKey = made.data.createKey.secretKey;
    expect((await t.gql(query, {}, devKey)).data.workspace.slug).toBe(ws.workspace.slug);
    const removed = await t.gql('mutation { removeMember(member: "dev@example.com") }', {}, ws.secretKey);
    expect(removed.data).toEqual({ removeMember: true });
    const result = await t.gql(query, {}, devKey);
    expect(result.errors![0].extensions.code).toBe('no_longer_a_member');
  });

  it('a member that is not an owner or admin cannot make keys (forbidden)', async () => {
    const ws = await t.workspace();
    const made = await t.gql('mutation { createKey(member: "m@example.com") { secretKey } }', {}, ws.secretKey);
    const result = await t.gql(
      'mutation { createKey(member: "x@example.com") { secretKey } }',
      {},
      made.data.createKey.secretKey,
    );
    expect(result.errors![0].extensions.code).toBe('forbidden');
  });
});

describe('GraphQL createWorkspace (operator only)', () => {
  const mutation =
    'mutation($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id slug } publicKey secretKey publicBaseUrl } }';

  it('the operator token creates a workspace whose keys work', async () => {
    const result = await t.gql(mutation, {
      input: { slug: 'gql-made', owner: 'o@gql.test', origins: ['https://gql.test'] },
    });
    const created = result.data.createWorkspace;
    expect(created.publicKey).toMatch(/^wk_[0-9A-Za-z]{24}$/);
    expect(created.secretKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(created.publicBaseUrl).toBe(`${t.url}/api/in/${created.publicKey}`);
    const workspace = await t.gql('{ workspace { slug allowedOrigins downloaderStage } }', {}, created.secretKey);
    expect(workspace.data.workspace).toEqual({
      slug: 'gql-made',
      allowedOrigins: ['https://gql.test'],
      downloaderStage: true,
    });
  });

  it('a secret key cannot create workspaces (forbidden)', async () => {
    const ws = await t.workspace();
    const result = await t.gql(mutation, { input: { slug: 'nope', owner: 'o@x.test' } }, ws.secretKey);
    expect(result.errors![0].extensions.code).toBe('forbidden');
  });

  it('secret keys are stored hashed, never as given', async () => {
    const ws = await t.workspace();
    const rows = await t.db.query('SELECT key_hash FROM api_keys WHERE workspace_id = $1', [ws.workspace.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).not.toContain(ws.secretKey);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the worker', () => {
  it('relays outbox rows written by the api', async () => {
    const ws = await t.workspace();
    await t.make.outbox(ws.workspace.id);
    const [happening] = await happeningsOf(t.db, ws.workspace.id);
    expect(await eventually(() => isRelayed(t.db, happening.id))).toBe(true);
  });

  it('the sweep deletes happenings relayed longer ago than the retention (30 days by default), and keeps the rest', async () => {
    const ws = await t.workspace();
    const insert = (daysAgo: number) =>
      t.make.outbox(ws.workspace.id, { created_at: new Date(Date.now() - daysAgo * 24 * 3600 * 1000) }, { n: daysAgo });
    await insert(31);
    await insert(29);
    for (const h of await happeningsOf(t.db, ws.workspace.id)) await eventually(() => isRelayed(t.db, h.id));
    const { SweepRegistry } = await import('@app/platform');
    await t.worker!.get(SweepRegistry).runAll();
    const left = await happeningsOf(t.db, ws.workspace.id);
    expect(left.map((h) => ({ n: String(h.payload.n) }))).toEqual([{ n: '29' }]);
  });

  it('registers the repeatable sweep', async () => {
    const { Queue } = await import('bullmq');
    const { bullConnection } = await import('@app/platform');
    const queue = new Queue('sweeps', { connection: bullConnection(t.config.redisUrl), prefix: t.config.redisPrefix });
    const schedulers = await queue.getJobSchedulers();
    await queue.close();
    expect(schedulers.map((s) => s.key)).toContain('sweep-every-minute');
  });
});

describe('GraphQL landing page', () => {
  it('is served at GET /graphql outside production', async () => {
    const response = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<!DOCTYPE html>/i);
  });
});
