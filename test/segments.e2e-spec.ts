// Live segments over GraphQL (docs/graphql.md#segments): saving one checks every part and names the bad one;
// a rename keeps the fill, a new definition starts it again; members are read by page, by person and through
// the people filter; an erased person leaves their segments and their counts.
import { memberKey, useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t);

const SEGMENT = 'id name definition filling fill { done total startedAt } count createdAt updatedAt';
const gql = (query: string, variables: Record<string, unknown> = {}, key = ws.secretKey) =>
  t.gql(query, variables, key);
const create = (input: Record<string, unknown>, key = ws.secretKey) =>
  gql(`mutation($input: CreateSegmentInput!) { createSegment(input: $input) { ${SEGMENT} } }`, { input }, key);
const update = (id: string, input: Record<string, unknown>, key = ws.secretKey) =>
  gql(
    `mutation($id: ID!, $input: UpdateSegmentInput!) { updateSegment(id: $id, input: $input) { ${SEGMENT} } }`,
    { id, input },
    key,
  );
const remove = (id: string, key = ws.secretKey) => gql('mutation($id: ID!) { deleteSegment(id: $id) }', { id }, key);
const made = async (input: Record<string, unknown>) => {
  const answer = await create(input);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data.createSegment;
};
const revision = async () =>
  Number(
    (await t.db.query(`SELECT revision FROM segment_revisions WHERE workspace_id = $1`, [ws.workspace.id]))[0]
      ?.revision ?? 0,
  );
const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const personId = async (email: string): Promise<string> =>
  (await t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND email = $2`, [ws.workspace.id, email]))[0].id;
const refusal = (answer: { errors?: Array<{ message: string; extensions: { code: string } }> }) => ({
  code: answer.errors?.[0].extensions.code,
  message: answer.errors?.[0].message,
});

describe('createSegment', () => {
  it('saves the name and the definition as posted, filling from the first person on, and raises the revision', async () => {
    const before = await revision();
    const answer = await create({ name: '  Trials  ', definition: { stage: ['trial'] } });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.createSegment).toMatchObject({
      id: expect.stringMatching(/^seg_/),
      name: 'Trials',
      definition: { stage: ['trial'] },
      filling: true,
      fill: { done: 0, total: null, startedAt: null },
      count: 0,
    });
    expect(await revision()).toBe(before + 1);
  });

  it('takes a built-in event name unseen, a custom one once seen, and a list that exists', async () => {
    await post({ type: 'report_built', email: 'seen@example.com' });
    await gql('mutation { createList(input: {address: "news", name: "News"}) { id } }');
    const definition = {
      all: [{ event: 'signup', never: true }, { event: 'report_built', atLeast: 3, withinDays: 7 }, { list: 'news' }],
    };
    expect((await create({ name: 'Builders', definition })).errors).toBeUndefined();
  });

  it.each([
    ['an empty name', { name: ' ', definition: { engaged: true } }, 'invalid_field', 'name'],
    ['a name over 80 characters', { name: 'n'.repeat(81), definition: { engaged: true } }, 'invalid_field', 'name'],
    ['no condition kind', { name: 'A', definition: { nothing: 1 } }, 'invalid_field', 'definition'],
    [
      'a bad atLeast deep inside',
      { name: 'A', definition: { all: [{ engaged: true }, { event: 'signup', atLeast: 0 }] } },
      'invalid_field',
      'definition.all[1].atLeast',
    ],
    ['an unknown stage', { name: 'A', definition: { stage: 'royalty' } }, 'invalid_field', 'definition.stage'],
    [
      'a custom event the workspace has not seen',
      { name: 'A', definition: { any: [{ engaged: false }, { not: { event: 'never_posted' } }] } },
      'unknown_event',
      'definition.any[1].not.event',
    ],
    ['a list that does not exist', { name: 'A', definition: { list: 'nowhere' } }, 'unknown_list', 'definition.list'],
  ])('refuses %s, naming the part', async (_what, input, code, field) => {
    const answer = await create(input);
    expect(answer.data).toBeNull();
    expect(refusal(answer).code).toBe(code);
    expect(refusal(answer).message).toContain(field);
    expect(await t.db.query(`SELECT 1 FROM segments WHERE workspace_id = $1`, [ws.workspace.id])).toEqual([]);
  });

  it('refuses a name the workspace has already, another workspace may have it', async () => {
    await made({ name: 'Engaged', definition: { engaged: true } });
    const again = await create({ name: 'Engaged', definition: { engaged: false } });
    expect(refusal(again)).toMatchObject({ code: 'conflict', message: expect.stringContaining('name') });
    const other = await t.workspace();
    expect((await create({ name: 'Engaged', definition: { engaged: true } }, other.secretKey)).errors).toBeUndefined();
  });

  it('holds at most 50 segments per workspace', async () => {
    for (let i = 0; i < 50; i++) await made({ name: `s${i}`, definition: { engaged: i % 2 === 0 } });
    expect(refusal(await create({ name: 's50', definition: { engaged: true } })).code).toBe('limit_reached');
  });
});

describe('reading segments', () => {
  it('segments lists oldest first; segment(id) finds one of the workspace only', async () => {
    const a = await made({ name: 'A', definition: { engaged: true } });
    const b = await made({ name: 'B', definition: { firstTouch: 'source', equals: 'newsletter' } });
    expect((await gql(`{ segments { id name } }`)).data.segments).toEqual([
      { id: a.id, name: 'A' },
      { id: b.id, name: 'B' },
    ]);
    expect((await gql(`query($id: ID!) { segment(id: $id) { ${SEGMENT} } }`, { id: b.id })).data.segment).toEqual(b);
    const other = await t.workspace();
    expect((await gql(`query($id: ID!) { segment(id: $id) { id } }`, { id: b.id }, other.secretKey)).data).toEqual({
      segment: null,
    });
  });
});

describe('updateSegment and deleteSegment', () => {
  it('a rename keeps the fill; a new definition starts it again and keeps the members meanwhile', async () => {
    const seg = await made({ name: 'Everyone', definition: { engaged: false } });
    await post({ type: 'identify', email: 'kept@example.com' });
    const person = await personId('kept@example.com');
    await t.db.query(`UPDATE segments SET filling = false, fill_done = 7, fill_total = 7 WHERE id = $1`, [seg.id]);
    const before = await revision();
    const renamed = (await update(seg.id, { name: 'All of them' })).data.updateSegment;
    expect(renamed).toMatchObject({ name: 'All of them', definition: { engaged: false }, filling: false, fill: null });
    const changed = await update(seg.id, { definition: { engaged: true } });
    expect(changed.data.updateSegment).toMatchObject({
      name: 'All of them',
      definition: { engaged: true },
      filling: true,
      fill: { done: 0, total: null },
      count: 1,
    });
    expect(await revision()).toBe(before + 2);
    const members = await t.db.query(`SELECT person_id FROM segment_members WHERE segment_id = $1`, [seg.id]);
    expect(members).toEqual([{ person_id: person }]);
  });

  it('refuses a bad part, a name taken by another segment, and an unknown id', async () => {
    const a = await made({ name: 'A', definition: { engaged: true } });
    await made({ name: 'B', definition: { engaged: false } });
    expect(refusal(await update(a.id, { name: 'B' })).code).toBe('conflict');
    expect((await update(a.id, { name: 'A' })).errors).toBeUndefined();
    const bad = refusal(await update(a.id, { definition: { not: { field: 'seats', gt: 'five' } } }));
    expect(bad).toMatchObject({ code: 'invalid_field', message: expect.stringContaining('definition.not.gt') });
    expect(refusal(await update('seg_nothing', { name: 'C' })).code).toBe('not_found');
  });

  it('deleteSegment takes it and its members away and raises the revision; a second delete is not_found', async () => {
    const seg = await made({ name: 'Gone', definition: { engaged: false } });
    await post({ type: 'identify', email: 'gone@example.com' });
    expect(await t.db.query(`SELECT 1 FROM segment_members WHERE segment_id = $1`, [seg.id])).toHaveLength(1);
    const before = await revision();
    expect((await remove(seg.id)).data.deleteSegment).toBe(true);
    expect(await revision()).toBe(before + 1);
    expect((await gql(`{ segments { id } }`)).data.segments).toEqual([]);
    expect(await t.db.query(`SELECT 1 FROM segment_members WHERE segment_id = $1`, [seg.id])).toEqual([]);
    expect(refusal(await remove(seg.id)).code).toBe('not_found');
  });
});

describe('roles', () => {
  it('members read segments; only owners and admins write them', async () => {
    const member = (await memberKey(t, ws, 'member@example.com')).secretKey;
    const admin = (await memberKey(t, ws, 'admin@example.com', 'admin')).secretKey;
    const seg = (await create({ name: 'By admin', definition: { engaged: true } }, admin)).data.createSegment;
    expect((await gql(`{ segments { name count } }`, {}, member)).data.segments).toEqual([
      { name: 'By admin', count: 0 },
    ]);
    for (const answer of [
      await create({ name: 'By member', definition: { engaged: true } }, member),
      await update(seg.id, { name: 'Renamed' }, member),
      await remove(seg.id, member),
    ])
      expect(answer.errors?.[0].extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect((await update(seg.id, { name: 'Renamed' }, admin)).errors).toBeUndefined();
    expect((await remove(seg.id, admin)).data.deleteSegment).toBe(true);
  });
});

describe('members', () => {
  const emails = Array.from({ length: 5 }, (_, i) => `m${i}@example.com`);

  /** Each post decides, in its own transaction, whether the person is in. */
  async function trials() {
    const seg = await made({ name: 'Pro', definition: { field: 'plan', equals: 'pro' } });
    for (const [i, email] of emails.entries())
      await post({ type: 'identify', email, ...(i < 3 ? { fields: { plan: 'pro' } } : {}) });
    const ids = await Promise.all(emails.map(personId));
    return { seg, ids: ids.slice(0, 3).sort() };
  }

  it('count, and Segment.people by record id a page at a time', async () => {
    const { seg, ids } = await trials();
    const page = (after?: string) =>
      gql(
        `query($id: ID!, $after: String) { segment(id: $id) { count people(first: 2, after: $after) {
          totalCount pageInfo { hasNextPage endCursor } edges { node { id email } } } } }`,
        { id: seg.id, after },
      );
    const first = (await page()).data.segment;
    expect(first.count).toBe(3);
    expect(first.people.totalCount).toBe(3);
    expect(first.people.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(ids.slice(0, 2));
    expect(first.people.pageInfo.hasNextPage).toBe(true);
    const second = (await page(first.people.pageInfo.endCursor)).data.segment.people;
    expect(second.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(ids.slice(2));
    expect(second.pageInfo.hasNextPage).toBe(false);
  });

  it('Person.segments and people(segment:), as the person enters and leaves', async () => {
    const { seg, ids } = await trials();
    const person = await gql(`{ person(email: "m0@example.com") { segments { id name } } }`);
    expect(person.data.person.segments).toEqual([{ id: seg.id, name: 'Pro' }]);
    const outside = await gql(`{ person(email: "m4@example.com") { segments { id } } }`);
    expect(outside.data.person.segments).toEqual([]);
    const people = await gql(`query($s: ID) { people(segment: $s) { totalCount edges { node { id } } } }`, {
      s: seg.id,
    });
    expect(people.data.people.totalCount).toBe(3);
    expect(people.data.people.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual(ids);
    const filtered = await gql(
      `query($s: ID) { people(segment: $s, filter: {email: "m1@example.com"}) { edges { node { email } } } }`,
      { s: seg.id },
    );
    expect(filtered.data.people.edges).toEqual([{ node: { email: 'm1@example.com' } }]);
    const other = await t.workspace();
    const theirs = await gql(`query($s: ID) { people(segment: $s) { totalCount } }`, { s: seg.id }, other.secretKey);
    expect(refusal(theirs).code).toBe('not_found');
    await post({ type: 'identify', email: 'm0@example.com', fields: { plan: 'free' } });
    const left = await gql(
      `query($id: ID!) { segment(id: $id) { count } person(email: "m0@example.com") { segments { id } } }`,
      {
        id: seg.id,
      },
    );
    expect(left.data).toEqual({ segment: { count: 2 }, person: { segments: [] } });
  });

  it('an erased person leaves their segments and the count goes down with them', async () => {
    const { seg } = await trials();
    const erased = await gql(`mutation { erasePerson(person: "m0@example.com") { id } }`);
    expect(erased.errors).toBeUndefined();
    const after = (
      await gql(`query($id: ID!) { segment(id: $id) { count people { edges { node { email } } } } }`, {
        id: seg.id,
      })
    ).data.segment;
    expect(after.count).toBe(2);
    expect(after.people.edges.map((e: { node: { email: string } }) => e.node.email).sort()).toEqual([
      'm1@example.com',
      'm2@example.com',
    ]);
  });
});

describe('the tool door', () => {
  const tool = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await t.request('POST', '/api/mcp', {
      key: ws.secretKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    return answer.body.result as { isError?: boolean; structuredContent: any; content: Array<{ text: string }> };
  };

  it('list_segments and get_segment answer what GraphQL does', async () => {
    const seg = await made({ name: 'Pro', definition: { field: 'plan', equals: 'pro' } });
    await post({ type: 'identify', email: 'tool@example.com', fields: { plan: 'pro' } });
    const id = await personId('tool@example.com');
    expect((await tool('list_segments')).structuredContent).toEqual({
      segments: [{ id: seg.id, name: 'Pro', count: 1, filling: true }],
    });
    const got = (await tool('get_segment', { id: seg.id })).structuredContent;
    expect(got).toMatchObject({
      segment: { id: seg.id, name: 'Pro', definition: { field: 'plan', equals: 'pro' }, count: 1, filling: true },
      members: [{ id, email: 'tool@example.com' }],
      more: false,
    });
    const missing = await tool('get_segment', { id: 'seg_nothing' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toContain('list_segments');
  });
});
