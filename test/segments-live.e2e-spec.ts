// Live membership (docs/graphql.md#segments): a person enters or leaves a segment in the transaction of the post
// that moved them, the count moves with them, and each move is one segment_entered or segment_left happening.
// Segments are written here as rows, as the segments service writes them, so these tests hold membership alone.
import { newId } from '@app/platform';
import { useApp, useWorkspace } from './harness';
import { happeningsOf } from './support/outbox';

const t = useApp();
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

async function segment(definition: unknown, name = newId('name')): Promise<string> {
  const id = newId('seg');
  await t.db.query(
    `INSERT INTO segments (workspace_id, id, name, definition, filling) VALUES ($1, $2, $3, $4, false)`,
    [ws.workspace.id, id, name, JSON.stringify(definition)],
  );
  await t.db.query(
    `INSERT INTO segment_revisions (workspace_id, revision) VALUES ($1, 1)
     ON CONFLICT (workspace_id) DO UPDATE SET revision = segment_revisions.revision + 1`,
    [ws.workspace.id],
  );
  return id;
}

const members = async (segmentId: string): Promise<string[]> =>
  (
    await t.db.query(
      `SELECT i.value FROM segment_members m JOIN identities i ON i.workspace_id = m.workspace_id
        AND i.person_id = m.person_id AND i.kind = 'email' WHERE m.segment_id = $1 ORDER BY i.value`,
      [segmentId],
    )
  ).map((r: { value: string }) => r.value);
const count = async (segmentId: string): Promise<number> =>
  Number(
    (
      await t.db.query(`SELECT coalesce(sum(members), 0) AS n FROM segment_counts WHERE segment_id = $1`, [segmentId])
    )[0].n,
  );
const moves = async (segmentId: string) =>
  (await happeningsOf(t.db, ws.workspace.id))
    .filter((h) => h.kind.startsWith('segment_') && JSON.stringify(h.payload).includes(segmentId))
    .map((h) => h.kind);

describe('live membership', () => {
  it('a stage segment takes a buyer in with their purchase, counts them and says so once', async () => {
    const id = await segment({ stage: ['purchaser', 'repeat'] }, 'Buyers');
    await post({ type: 'signup', email: 'ada@example.com' });
    expect(await members(id)).toEqual([]);
    await post({ type: 'purchase', email: 'ada@example.com', value: 30 });
    expect(await members(id)).toEqual(['ada@example.com']);
    await post({ type: 'purchase', email: 'ada@example.com', value: 30 }); // repeat: still a member
    expect(await count(id)).toBe(1);
    expect(await moves(id)).toEqual(['segment_entered']);
    const [entered] = (await happeningsOf(t.db, ws.workspace.id)).filter((h) => h.kind === 'segment_entered');
    expect(entered.payload).toMatchObject({ data: { segment_entered: { segment: { id, name: 'Buyers' } } } });
  });

  it('a list segment follows subscribe and unsubscribe', async () => {
    await t.gql(
      'mutation($input: CreateListInput!) { createList(input: $input) { id } }',
      { input: { address: 'news', name: 'News' } },
      ws.secretKey,
    );
    const id = await segment({ list: 'news' });
    await post({ type: 'subscribe', email: 'bo@example.com', list: 'news', consent: { text: 'Send me news.' } });
    expect(await members(id)).toEqual(['bo@example.com']);
    await post({ type: 'unsubscribe', email: 'bo@example.com', list: 'news' });
    expect(await members(id)).toEqual([]);
    expect(await count(id)).toBe(0);
    expect(await moves(id)).toEqual(['segment_entered', 'segment_left']);
  });

  it('coming off a list from the console (GraphQL unsubscribe) leaves the list segment in the same transaction', async () => {
    const list = (
      await t.gql(
        'mutation($input: CreateListInput!) { createList(input: $input) { id } }',
        { input: { address: 'tips', name: 'Tips' } },
        ws.secretKey,
      )
    ).data.createList as { id: string };
    const id = await segment({ all: [{ list: 'tips' }, { engaged: true }] });
    await post({ type: 'subscribe', email: 'fa@example.com', list: 'tips', consent: { text: 'Send me tips.' } });
    expect(await members(id)).toEqual(['fa@example.com']);
    const answer = await t.gql(
      'mutation($person: String!, $list: ID!) { unsubscribe(person: $person, list: $list) { status } }',
      { person: 'fa@example.com', list: list.id },
      ws.secretKey,
    );
    expect(answer.data.unsubscribe.status).toBe('unsubscribed');
    expect(await members(id)).toEqual([]);
    expect(await moves(id)).toEqual(['segment_entered', 'segment_left']);
  });

  it('a field segment follows identify, and an event window counts only the recent events', async () => {
    const pro = await segment({ all: [{ field: 'plan', equals: 'pro' }, { not: { field: 'seats', lt: 3 } }] });
    const busy = await segment({ event: 'report_built', atLeast: 3, withinDays: 7 });
    await post({ type: 'identify', email: 'cy@example.com', fields: { plan: 'pro', seats: 5 } });
    expect(await members(pro)).toEqual(['cy@example.com']);
    await post({ type: 'identify', email: 'cy@example.com', fields: { seats: 2 } });
    expect(await members(pro)).toEqual([]);
    await post({ type: 'report_built', email: 'cy@example.com', occurred_at: days(10) });
    await post({ type: 'report_built', email: 'cy@example.com', occurred_at: days(2) });
    await post({ type: 'report_built', email: 'cy@example.com', occurred_at: days(1) });
    expect(await members(busy)).toEqual([]);
    await post({ type: 'report_built', email: 'cy@example.com' });
    expect(await members(busy)).toEqual(['cy@example.com']);
  });

  it('a segment added after this process read the segments is kept by the next post (the revision check)', async () => {
    const first = await segment({ engaged: true });
    await post({ type: 'signup', email: 'di@example.com' });
    expect(await members(first)).toEqual(['di@example.com']);
    const second = await segment({ any: [{ event: 'pageview', atLeast: 1 }, { stage: ['churned'] }] });
    await post({ type: 'pageview', email: 'di@example.com' });
    expect(await members(second)).toEqual(['di@example.com']);
  });

  it('a merge leaves one member, counted once', async () => {
    const id = await segment({ engaged: true });
    await post({ type: 'signup', email: 'ed@example.com' });
    await post({ type: 'signup', email: 'ed.work@example.com' });
    expect(await count(id)).toBe(2);
    const merged = await post({ type: 'identify', email: 'ed@example.com', account_id: 'u-ed' });
    expect(merged.status).toBe(200);
    await post({ type: 'identify', email: 'ed.work@example.com', account_id: 'u-ed' });
    expect(await count(id)).toBe(1);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM segment_members WHERE segment_id = $1`, [id]);
    expect(n).toBe(1);
  });

  it('a batch moves each person once, and first touch is a condition', async () => {
    const id = await segment({ firstTouch: 'source', equals: 'newsletter' });
    const answer = await post({
      events: [
        { type: 'pageview', anon_id: 'a-1', source: { utm: { source: 'newsletter' } } },
        { type: 'pageview', anon_id: 'a-2', source: { utm: { source: 'search' } } },
        { type: 'pageview', anon_id: 'a-1' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(await count(id)).toBe(1);
    expect(await moves(id)).toEqual(['segment_entered']);
  });
});
