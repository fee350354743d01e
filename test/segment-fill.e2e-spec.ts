// The worker's part of live segments (docs/graphql.md#segments): a new segment fills over the people the
// workspace already has, chunk by chunk with its progress on the segment; a day window that closes on an event
// moves people out within the sweep interval; an expired event's member leaves with the expiry sweep.
import { Client } from 'pg';
import { FILL_POLL_MS } from '../libs/events/src/segments/fill/segment-fill';
import { newId, SweepRegistry } from '@app/platform';
import { eventually, useApp, useWorkspace } from './harness';
import { happeningsOf } from './support/outbox';

const SWEEP_MS = 300;
const CHUNK = 40;
const t = useApp({ worker: true, env: { SEGMENT_SWEEP_MS: String(SWEEP_MS), SEGMENT_FILL_CHUNK: String(CHUNK) } });
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });

const SEGMENT = `id name filling fill { done total startedAt } count`;

async function createSegment(name: string, definition: unknown, announceFill?: boolean) {
  const made = await t.gql(
    `mutation($input: CreateSegmentInput!) { createSegment(input: $input) { ${SEGMENT} } }`,
    { input: { name, definition, announceFill } },
    ws.secretKey,
  );
  if (made.errors) throw new Error(JSON.stringify(made.errors));
  return made.data.createSegment;
}

const segment = async (id: string) =>
  (await t.gql(`query($id: ID!) { segment(id: $id) { ${SEGMENT} } }`, { id }, ws.secretKey)).data.segment;

const filled = (id: string) =>
  eventually(async () => {
    const now = await segment(id);
    return !now.filling && now;
  }, 20_000);

const isMember = async (segmentId: string, personId: string): Promise<boolean> =>
  (await t.db.query(`SELECT 1 FROM segment_members WHERE segment_id = $1 AND person_id = $2`, [segmentId, personId]))
    .length > 0;

const moves = async (segmentId: string, kind: string) =>
  (await happeningsOf(t.db, ws.workspace.id)).filter(
    (h) => h.kind === kind && JSON.stringify(h.payload).includes(segmentId),
  ).length;

/** `n` people written straight into the table, every third on the pro plan; one is merged into another. */
async function people(n: number): Promise<void> {
  await t.db.query(
    `INSERT INTO people (workspace_id, id, last_seen_at, fields)
     SELECT $1, 'per_fill' || lpad(i::text, 6, '0'), now(),
            CASE WHEN i % 3 = 0 THEN '{"plan":"pro"}'::jsonb ELSE '{"plan":"free"}'::jsonb END
       FROM generate_series(1, $2::int) i`,
    [ws.workspace.id, n],
  );
  await t.db.query(
    `UPDATE people SET merged_into = 'per_fill000001' WHERE workspace_id = $1 AND id = 'per_fill000003'`,
    [ws.workspace.id],
  );
}

/** The people on a plan, counted by SQL. */
const onPlan = async (plan: string): Promise<number> =>
  (
    await t.db.query(
      `SELECT count(*)::int AS n FROM people
        WHERE workspace_id = $1 AND merged_into IS NULL AND fields->>'plan' = $2`,
      [ws.workspace.id, plan],
    )
  )[0].n;

describe('the fill of a new segment', () => {
  it('goes over the existing people in chunks, shows its progress, and counts what SQL counts, quietly', async () => {
    await people(1_000);
    const made = await createSegment('Pro', { field: 'plan', equals: 'pro' });
    expect(made).toMatchObject({ filling: true, fill: { done: 0 } });
    const seen: Array<{ done: number; total: number | null }> = [];
    const done = await eventually(async () => {
      const now = await segment(made.id);
      if (now.fill) seen.push(now.fill);
      return !now.filling && now;
    }, 20_000);
    expect(done).toMatchObject({ filling: false, fill: null, count: await onPlan('pro') });
    expect(done.count).toBe(333 - 1);
    // Progress by chunks: a total of the workspace's people (the merged one left out) and dones below it.
    expect(seen.some((fill) => fill.total === 999 && fill.done > 0 && fill.done < 999)).toBe(true);
    const [row] = await t.db.query(`SELECT fill_done, fill_total, filled_at FROM segments WHERE id = $1`, [made.id]);
    expect(row).toMatchObject({ fill_done: 999, fill_total: 999 });
    expect(row.filled_at).not.toBeNull();
    expect(await moves(made.id, 'segment_entered')).toBe(0);
  });

  it('announces what it finds when asked to (announceFill)', async () => {
    await people(100);
    const made = await createSegment('Pro, announced', { field: 'plan', equals: 'pro' }, true);
    const done = await filled(made.id);
    expect(done.count).toBe(33 - 1);
    expect(await moves(made.id, 'segment_entered')).toBe(done.count);
  });

  it('starts again after a definition change, and a write meanwhile keeps its member', async () => {
    await people(200);
    const made = await createSegment('Plans', { field: 'plan', equals: 'pro' });
    await filled(made.id);
    const changed = await t.gql(
      `mutation($id: ID!, $input: UpdateSegmentInput!) { updateSegment(id: $id, input: $input) { filling } }`,
      { id: made.id, input: { definition: { field: 'plan', equals: 'free' } } },
      ws.secretKey,
    );
    expect(changed.data.updateSegment.filling).toBe(true);
    expect((await post({ type: 'identify', email: 'new@example.com', fields: { plan: 'free' } })).status).toBe(200);
    const done = await filled(made.id);
    expect(done.count).toBe(await onPlan('free'));
    expect(done.count).toBe(135);
  });
});

describe('a fill and the writers around it', () => {
  it('waits for every transaction begun before it, then fills', async () => {
    await people(100);
    const writer = new Client({ connectionString: t.config.databaseUrl });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('SELECT txid_current()');
      const made = await createSegment('Waits', { field: 'plan', equals: 'pro' });
      await new Promise((r) => setTimeout(r, FILL_POLL_MS * 2));
      expect(await segment(made.id)).toMatchObject({ filling: true, fill: { done: 0, total: null, startedAt: null } });
      await writer.query('COMMIT');
      expect((await filled(made.id)).count).toBe(32);
    } finally {
      await writer.end();
    }
  });

  it("goes on from a killed worker's progress, kept on the segment's row", async () => {
    await people(100);
    const id = newId('seg');
    await t.db.query(
      `INSERT INTO segments (workspace_id, id, name, definition, fill_after, fill_done, fill_total, fill_started_at)
       VALUES ($1, $2, 'Half done', '{"field":"plan","equals":"pro"}', 'per_fill000050', 50, 99, now())`,
      [ws.workspace.id, id],
    );
    await t.db.query(`INSERT INTO segment_revisions (workspace_id, revision) VALUES ($1, 1)`, [ws.workspace.id]);
    const done = await filled(id);
    // Only the people after fill_after were gone over: 51 to 100, of whom 17 are on the pro plan.
    expect(done).toMatchObject({ count: 17, fill: null });
    const [row] = await t.db.query(`SELECT fill_done, fill_after FROM segments WHERE id = $1`, [id]);
    expect(row).toEqual({ fill_done: 100, fill_after: 'per_fill000100' });
  });
});

describe('day windows', () => {
  it('a person leaves a window segment within the sweep interval once their event is past the window', async () => {
    const closes = Date.now() + 5_000;
    const answer = await post({ type: 'report_built', email: 'win@example.com', occurred_at: iso(closes - DAY) });
    expect(answer.status).toBe(200);
    const personId = answer.body.id;
    const made = await createSegment('Recent', { event: 'report_built', atLeast: 1, withinDays: 1 });
    await filled(made.id);
    expect(Date.now()).toBeLessThan(closes);
    expect(await isMember(made.id, personId)).toBe(true);
    await eventually(async () => !(await isMember(made.id, personId)), 15_000, 25);
    expect(Date.now() - closes).toBeLessThan(SWEEP_MS * 3 + 1_000);
    expect((await segment(made.id)).count).toBe(0);
    expect(await moves(made.id, 'segment_left')).toBe(1);
  });

  it('a never-within segment takes the person in once their last event leaves the window', async () => {
    const closes = Date.now() + 3_000;
    const answer = await post({ type: 'report_built', email: 'back@example.com', occurred_at: iso(closes - DAY) });
    const personId = answer.body.id;
    const made = await createSegment('Lapsed', { event: 'report_built', never: true, withinDays: 1 });
    await filled(made.id);
    expect(await isMember(made.id, personId)).toBe(false);
    await eventually(() => isMember(made.id, personId), 15_000, 25);
    expect(Date.now() - closes).toBeLessThan(SWEEP_MS * 3 + 1_000);
    expect(await moves(made.id, 'segment_entered')).toBe(1);
  });
});

describe('expiry', () => {
  it('an expired event takes its person out of the segment it made them a member of, with the sweep', async () => {
    const expires = Date.now() + 1_500;
    const answer = await post({ type: 'trial_started', email: 'exp@example.com', expires_at: iso(expires) });
    expect(answer.status).toBe(200);
    const personId = answer.body.id;
    const made = await createSegment('Trials', { event: 'trial_started' });
    await filled(made.id);
    expect(await isMember(made.id, personId)).toBe(true);
    await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now() + 50)));
    expect(await t.worker!.get(SweepRegistry).runAll()).toMatchObject({ 'expired-events': 1 });
    expect(await isMember(made.id, personId)).toBe(false);
    expect((await segment(made.id)).count).toBe(0);
    expect(await moves(made.id, 'segment_left')).toBe(1);
  });
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
