// The ingest write (docs/rest.md#events) against the real database: what one post writes,
// how many round trips it costs, and the idempotency race between two posts with one key.
import { Client } from 'pg';
import { WorkspaceEntity, WorkspacesService } from '@app/workspaces';
import { IngestService } from '@app/events';
import { SuppressionList } from '@app/people';
import { happeningsOf } from '../support/outbox';
import { useMedium } from './medium';

const t = useMedium();
let workspace: WorkspaceEntity;
beforeAll(async () => {
  const made = await t.get(WorkspacesService).create({ slug: 'medium-ingest', owner: 'owner@example.com' });
  workspace = await t.get(WorkspacesService).get(made.workspace.id);
});

const ingest = (items: unknown[]) => t.get(IngestService).ingest(workspace, items, { publicDoor: false });
const rows = (sql: string, args: unknown[] = []) => t.db.query(sql, [workspace.id, ...args]);

describe('the ingest write', () => {
  it('a first post writes the person, the identity, the timeline row and the happening together', async () => {
    const [result] = await ingest([{ type: 'signup', email: 'new@example.com', source: { os: 'mac' } }]);
    expect(result).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
    const id = (result as { id: string }).id;
    expect(await rows(`SELECT id, email, os, stage FROM people WHERE workspace_id = $1 AND id = $2`, [id])).toEqual([
      { id, email: 'new@example.com', os: 'mac', stage: expect.any(String) },
    ]);
    expect(await rows(`SELECT kind, value FROM identities WHERE workspace_id = $1 AND person_id = $2`, [id])).toEqual([
      { kind: 'email', value: 'new@example.com' },
    ]);
    const timeline = await rows(`SELECT type FROM events WHERE workspace_id = $1 AND person_id = $2 ORDER BY type`, [
      id,
    ]);
    expect(timeline.map((r: { type: string }) => r.type)).toContain('signup');
    const happenings = (await happeningsOf(t.db, workspace.id)).filter((h) => h.person_id === id);
    expect(happenings.map((h) => h.kind)).toContain('event');
  });

  it("every identity it writes carries its person's created_at: a new person's, a known person's, a merged one's", async () => {
    const [made] = await ingest([{ type: 'signup', email: 'copy-new@example.com' }]);
    await ingest([{ type: 'identify', email: 'copy-new@example.com', anon_id: 'copy-anon-1' }]); // a known person gains a key
    await ingest([{ type: 'pageview', anon_id: 'copy-anon-2' }]);
    await ingest([{ type: 'identify', email: 'copy-new@example.com', anon_id: 'copy-anon-2' }]); // the post merges the two
    const copies = await rows(
      `SELECT i.value, i.person_id, i.person_created_at = p.created_at AS same FROM identities i JOIN people p ON p.workspace_id = i.workspace_id AND p.id = i.person_id
        WHERE i.workspace_id = $1 AND i.value LIKE 'copy-%' ORDER BY i.value`,
    );
    const id = (made as { id: string }).id;
    expect(copies).toEqual(
      ['copy-anon-1', 'copy-anon-2', 'copy-new@example.com'].map((value) => ({ value, person_id: id, same: true })),
    );
  });

  it('a key erased where this process saw no erasure answers suppressed: the write finds the list not empty, and the post runs again reading it', async () => {
    const made = await t.get(WorkspacesService).create({ slug: 'medium-ingest-erased', owner: 'owner@example.com' });
    const elsewhere = await t.get(WorkspacesService).get(made.workspace.id);
    const list = t.get(SuppressionList);
    // As another process's erasure leaves it: listed, and never seen by this process.
    const hash = list.hash(elsewhere.id, { kind: 'email', value: 'gone@example.com' });
    await t.db.query(`INSERT INTO suppressions (workspace_id, hash, erasure_id) VALUES ($1, $2, 'era_elsewhere')`, [
      elsewhere.id,
      hash,
    ]);
    expect(list.mayList(elsewhere.id)).toBe(false);
    const results = await t.get(IngestService).ingest(
      elsewhere,
      [
        { type: 'pageview', email: 'gone@example.com' },
        { type: 'pageview', email: 'kept@example.com' },
      ],
      { publicDoor: false },
    );
    expect(results).toEqual([
      { ok: true, status: 'suppressed' },
      { ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) },
    ]);
    expect(list.mayList(elsewhere.id)).toBe(true);
    const keys = await t.db.query(`SELECT value FROM identities WHERE workspace_id = $1 ORDER BY value`, [
      elsewhere.id,
    ]);
    expect(keys).toEqual([{ value: 'kept@example.com' }]);
    // From now on the posts send their keys' hashes: still suppressed, nothing written.
    expect(
      await t
        .get(IngestService)
        .ingest(elsewhere, [{ type: 'identify', email: 'gone@example.com' }], { publicDoor: false }),
    ).toEqual([{ ok: true, status: 'suppressed' }]);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM people WHERE workspace_id = $1`, [elsewhere.id])).toEqual([
      { n: 1 },
    ]);
  });

  it('a returning person is found by a key and changed in place, not made twice', async () => {
    const [first] = await ingest([{ type: 'identify', email: 'back@example.com', name: 'Ada' }]);
    const [again] = await ingest([{ type: 'purchase', email: 'back@example.com' }]);
    expect((again as { id: string }).id).toBe((first as { id: string }).id);
    expect(
      await rows(`SELECT name, purchases FROM people WHERE workspace_id = $1 AND email = 'back@example.com'`),
    ).toEqual([{ name: 'Ada', purchases: 1 }]);
  });

  // bench/RESULTS.md: round trips, not SQL, set the price of a post. BEGIN with the load of the people (by
  // their keys, rows locked), the one write statement with COMMIT (pipelinedTransaction): two, however
  // many tables the post touches (four when each table had a statement of its own, BEGIN and COMMIT too).
  it('a post costs two round trips to PostgreSQL, a batch of a hundred the same two', async () => {
    const spy = jest.spyOn(Client.prototype, 'query');
    try {
      await ingest([{ type: 'signup', email: 'trips@example.com' }]);
      expect(spy).toHaveBeenCalledTimes(2);
      spy.mockClear();
      await ingest(Array.from({ length: 100 }, (_, i) => ({ type: 'pageview', email: `batch-${i}@example.com` })));
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  // Three batches at once: the first is a transaction of its own, the other two share the next
  // (batchLanes). The first claim wins; the later transaction waits for its commit and both of its
  // claims answer what it answered.
  it('three transactions racing with one idempotency key record one event and give the same answer', async () => {
    const post = (n: number) =>
      ingest([
        { type: 'purchase', email: 'race@example.com', idempotency_key: 'order-77' },
        { type: 'pageview', anon_id: `racer-${n}` },
      ]);
    const answers = await Promise.all([post(1), post(2), post(3)]);
    const first = answers.map((a) => a[0]);
    expect(first[0]).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
    expect(first[1]).toEqual(first[0]);
    expect(first[2]).toEqual(first[0]);
    const id = (first[0] as { id: string }).id;
    expect(
      await rows(
        `SELECT count(*)::int AS n FROM events WHERE workspace_id = $1 AND type = 'purchase' AND person_id = $2`,
        [id],
      ),
    ).toEqual([{ n: 1 }]);
    expect(
      await rows(`SELECT status, record_id FROM idempotency_keys WHERE workspace_id = $1 AND key = 'order-77'`),
    ).toEqual([{ status: 'recorded', record_id: id }]);
  });

  // Concurrent batches to one workspace share transactions (IngestService.batchLanes): the first starts
  // at once, alone; the seven that arrive while it runs go four and three to a transaction.
  it('eight batches at once take three transactions, and each item is answered as it would be alone', async () => {
    const outboxRows = async () =>
      (await rows(`SELECT count(*)::int AS n FROM outbox WHERE workspace_id = $1`))[0].n as number;
    const before = await outboxRows();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, post) =>
        ingest(Array.from({ length: 10 }, (_, i) => ({ type: 'pageview', email: `lane-${post}-${i}@example.com` }))),
      ),
    );
    expect((await outboxRows()) - before).toBe(3); // one outbox row per writing transaction
    const ids = answers.flat().map((a) => (a as { id: string }).id);
    expect(answers.flat()).toEqual(
      ids.map(() => ({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) })),
    );
    expect(new Set(ids).size).toBe(80);
    const people = await rows(`SELECT id, email FROM people WHERE workspace_id = $1 AND email LIKE 'lane-%'`);
    const byEmail = new Map(people.map((p: { id: string; email: string }) => [p.email, p.id]));
    answers.forEach((answer, post) =>
      answer.forEach((a, i) => expect((a as { id: string }).id).toBe(byEmail.get(`lane-${post}-${i}@example.com`))),
    );
  });

  // A second batch transaction may start beside the first once the first's load has locked its people
  // (GroupCommit's overlap): a batch naming the same person by another key then waits on the row lock,
  // so batches are applied to a person in the order they arrived.
  it('two batches naming one person by different keys are applied in the order they arrived', async () => {
    await ingest([{ type: 'identify', email: 'order@example.com', account_id: 'acct-order', name: 'start' }]);
    for (let i = 0; i < 30; i++) {
      await Promise.all([
        ingest([
          { type: 'identify', email: 'order@example.com', name: `first-${i}` },
          { type: 'pageview', anon_id: `order-a-${i}` },
        ]),
        ingest([
          { type: 'identify', account_id: 'acct-order', name: `second-${i}` },
          { type: 'pageview', anon_id: `order-b-${i}` },
        ]),
      ]);
      expect(await rows(`SELECT name FROM people WHERE workspace_id = $1 AND email = 'order@example.com'`)).toEqual([
        { name: `second-${i}` },
      ]);
    }
  });
});
