// Members and keys over GraphQL (docs/graphql.md#the-workspace-members-and-keys): the last-owner rule, keys listed
// without the key, and a revoked key or removed member refused on the very next request by another api process.
import type { INestApplication } from '@nestjs/common';
import { freePort } from '@app/platform';
import { createApi } from '../apps/api/src/bootstrap';
import { eventually, memberKey, useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t);

const gql = (query: string, key: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, key);
const keyFor = (email: string, role?: 'admin' | 'member' | 'owner') => memberKey(t, ws, email, role);
const codeOf = (answer: { errors?: Array<{ extensions: { code: string } }> }) => answer.errors?.[0]?.extensions.code;
const WHO = '{ workspace { slug } }';

describe('members', () => {
  it('members lists who is in, with roles; addMember and changeRole change them', async () => {
    await gql('mutation { addMember(email: "Ann@Example.com", role: "admin") { email role } }', ws.secretKey);
    const changed = await gql(
      'mutation { changeRole(member: "ann@example.com", role: "member") { email role } }',
      ws.secretKey,
    );
    expect(changed.data.changeRole).toEqual({ email: 'ann@example.com', role: 'member' });
    const members = (await gql('{ members { email role } }', ws.secretKey)).data.members;
    expect(members).toEqual([
      { email: 'owner@example.com', role: 'owner' },
      { email: 'ann@example.com', role: 'member' },
    ]);
  });

  it('adding someone already in is a conflict; a bad role is invalid_field', async () => {
    expect(
      codeOf(await gql('mutation { addMember(email: "owner@example.com", role: "admin") { id } }', ws.secretKey)),
    ).toBe('conflict');
    expect(codeOf(await gql('mutation { addMember(email: "x@example.com", role: "boss") { id } }', ws.secretKey))).toBe(
      'invalid_field',
    );
  });

  it('the last owner can be neither removed nor demoted; with a second owner both work', async () => {
    const remove = await gql('mutation { removeMember(member: "owner@example.com") }', ws.secretKey);
    expect(codeOf(remove)).toBe('last_owner');
    expect(remove.errors![0].extensions).toMatchObject({ status: 409 });
    expect(
      codeOf(await gql('mutation { changeRole(member: "owner@example.com", role: "admin") { role } }', ws.secretKey)),
    ).toBe('last_owner');
    expect((await gql(WHO, ws.secretKey)).data.workspace.slug).toBe(ws.workspace.slug);

    await gql('mutation { addMember(email: "second@example.com", role: "owner") { id } }', ws.secretKey);
    expect(
      (await gql('mutation { changeRole(member: "owner@example.com", role: "admin") { role } }', ws.secretKey)).data
        .changeRole.role,
    ).toBe('admin');
    const second = await keyFor('second@example.com');
    expect(codeOf(await gql('mutation { removeMember(member: "second@example.com") }', second.secretKey))).toBe(
      'last_owner',
    );
    expect(
      (await gql('mutation { removeMember(member: "owner@example.com") }', second.secretKey)).data.removeMember,
    ).toBe(true);
  });

  it('two owners demoting each other at once leave one owner', async () => {
    await gql('mutation { addMember(email: "second@example.com", role: "owner") { id } }', ws.secretKey);
    const second = await keyFor('second@example.com');
    const answers = await Promise.all([
      gql('mutation { changeRole(member: "second@example.com", role: "member") { role } }', ws.secretKey),
      gql('mutation { changeRole(member: "owner@example.com", role: "member") { role } }', second.secretKey),
    ]);
    const owners = await t.db.query(
      `SELECT count(*)::int AS n FROM members WHERE workspace_id = $1 AND role = 'owner' AND removed_at IS NULL`,
      [ws.workspace.id],
    );
    expect(owners[0].n).toBe(1);
    expect(
      answers.filter(
        (a) => codeOf(a) === 'last_owner' || codeOf(a) === 'no_longer_a_member' || codeOf(a) === 'forbidden',
      ),
    ).toHaveLength(1);
  });

  it('an admin manages members and admins but never owners', async () => {
    const admin = await keyFor('admin@example.com', 'admin');
    expect(
      (await gql('mutation { addMember(email: "m@example.com", role: "admin") { role } }', admin.secretKey)).data
        .addMember.role,
    ).toBe('admin');
    expect(
      codeOf(await gql('mutation { addMember(email: "o@example.com", role: "owner") { role } }', admin.secretKey)),
    ).toBe('forbidden');
    expect(
      codeOf(await gql('mutation { changeRole(member: "m@example.com", role: "owner") { role } }', admin.secretKey)),
    ).toBe('forbidden');
    expect(codeOf(await gql('mutation { removeMember(member: "owner@example.com") }', admin.secretKey))).toBe(
      'forbidden',
    );
    expect((await gql('mutation { removeMember(member: "m@example.com") }', admin.secretKey)).data.removeMember).toBe(
      true,
    );
  });

  it('a removed member added back gets no old key back', async () => {
    const dev = await keyFor('dev@example.com');
    await gql('mutation { removeMember(member: "dev@example.com") }', ws.secretKey);
    expect(codeOf(await gql(WHO, dev.secretKey))).toBe('no_longer_a_member');
    await gql('mutation { addMember(email: "dev@example.com", role: "member") { id } }', ws.secretKey);
    expect(codeOf(await gql(WHO, dev.secretKey))).toBe('invalid_key');
    const fresh = await keyFor('dev@example.com');
    expect((await gql(WHO, fresh.secretKey)).data.workspace.slug).toBe(ws.workspace.slug);
  });
});

describe('keys', () => {
  it('keys lists hint, member and last use, never the key; createKey shows it once', async () => {
    const dev = await keyFor('dev@example.com');
    await t.request('POST', '/api/v1/events', {
      key: dev.secretKey,
      body: { type: 'pageview', email: 'p@example.com' },
    });
    const keys = await eventually(async () => {
      const list = (await gql('{ keys { id hint memberEmail createdAt lastUsedAt revokedAt } }', ws.secretKey)).data
        .keys;
      return list.find((k: { id: string; lastUsedAt: string | null }) => k.id === dev.keyId)?.lastUsedAt ? list : null;
    });
    const mine = keys.find((k: { id: string }) => k.id === dev.keyId);
    expect(mine).toMatchObject({ hint: dev.secretKey.slice(-4), memberEmail: 'dev@example.com', revokedAt: null });
    expect(JSON.stringify(keys)).not.toContain(dev.secretKey);
    const stored = await t.db.query(`SELECT * FROM api_keys WHERE id = $1`, [dev.keyId]);
    expect(JSON.stringify(stored)).not.toContain(dev.secretKey);
    expect(codeOf(await gql('{ keys { id } }', dev.secretKey))).toBe('forbidden');
  });

  it("revokeKey refuses that key from the next request and leaves the member's other keys", async () => {
    const one = await keyFor('dev@example.com');
    const two = await keyFor('dev@example.com');
    expect((await gql(`mutation { revokeKey(id: "${one.keyId}") }`, ws.secretKey)).data.revokeKey).toBe(true);
    const refused = await t.request('POST', '/api/v1/events', {
      key: one.secretKey,
      body: { type: 'pageview', email: 'p@example.com' },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_key');
    expect((await gql(WHO, two.secretKey)).data.workspace.slug).toBe(ws.workspace.slug);
    expect(codeOf(await gql('mutation { revokeKey(id: "key_nope") }', ws.secretKey))).toBe('not_found');
  });

  it('a key of another workspace cannot be revoked from here', async () => {
    const other = await t.workspace();
    const theirs = (await gql('{ keys { id } }', other.secretKey)).data.keys[0].id;
    expect(codeOf(await gql(`mutation { revokeKey(id: "${theirs}") }`, ws.secretKey))).toBe('not_found');
    expect((await gql(WHO, other.secretKey)).data.workspace.slug).toBe(other.workspace.slug);
  });
});

describe('another api process refuses a revoked key or removed member on the very next request', () => {
  let second: INestApplication;
  let secondUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    second = await createApi({ ...t.config, port, baseUrl: `http://127.0.0.1:${port}` });
    await second.listen(port, '127.0.0.1');
    secondUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(() => second.close());

  const postOnSecond = (key: string) =>
    fetch(`${secondUrl}/api/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ type: 'pageview', email: 'p@example.com' }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('revokeKey through the first process', async () => {
    const dev = await keyFor('dev@example.com');
    expect((await postOnSecond(dev.secretKey)).status).toBe(200);
    await gql(`mutation { revokeKey(id: "${dev.keyId}") }`, ws.secretKey);
    expect(await postOnSecond(dev.secretKey)).toMatchObject({ status: 401, body: { error: 'invalid_key' } });
  });

  it('removeMember through the first process', async () => {
    const dev = await keyFor('dev@example.com');
    expect((await postOnSecond(dev.secretKey)).status).toBe(200);
    await gql('mutation { removeMember(member: "dev@example.com") }', ws.secretKey);
    expect(await postOnSecond(dev.secretKey)).toMatchObject({ status: 403, body: { error: 'no_longer_a_member' } });
  });
});
