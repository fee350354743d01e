// docs/decisions.md#events-by-month: the events table by month of occurred_at. Rows
// land in their month's partition, or in the default one when their month has none, from where the
// sweep moves them; the sweep makes the months ahead; reads prune by time; and an old plain table with
// rows is converted while it keeps serving reads and writes, losing and repeating no row.
import type { QueryRunner } from 'typeorm';
import {
  chartStatement,
  parseChartInput,
  PartitionUpkeep,
  TimelineRepository,
  timelinePagesStatement,
} from '@app/events';
import { newId } from '@app/platform';
import { EVENTS_MIGRATIONS } from '../../libs/events/src/migrations';
import { useMedium } from './medium';

const t = useMedium();
let workspaceId: string;
let personId: string;
beforeAll(async () => {
  workspaceId = (await t.make.workspace()).id;
  personId = (await t.make.person(workspaceId)).id;
});

const upkeep = () => t.get(PartitionUpkeep);
const partitionOf = async (id: string): Promise<string> =>
  (
    await t.db.query(`SELECT tableoid::regclass::text AS part FROM events WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ])
  )[0]?.part;
const partitions = async (): Promise<string[]> =>
  (
    await t.db.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass ORDER BY 1`,
    )
  ).map((r: { relname: string }) => r.relname);
const event = (occurredAt: string, row: Record<string, unknown> = {}) =>
  t.make.event(workspaceId, personId, { occurred_at: occurredAt, ...row });

interface PlanNode {
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const relations = (node: PlanNode): string[] => [
  ...(node['Relation Name'] ? [node['Relation Name']] : []),
  ...(node.Plans ?? []).flatMap(relations),
];
async function scanned(sql: string, args: unknown[]): Promise<string[]> {
  const [row] = await t.db.query(`EXPLAIN (FORMAT JSON) ${sql}`, args);
  return [...new Set(relations(row['QUERY PLAN'][0].Plan))].sort();
}

describe('rows by month', () => {
  it('a row lands in the partition of its month', async () => {
    const now = new Date();
    const month = `events_y${now.getUTCFullYear()}m${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(await partitionOf((await event(now.toISOString())).id as string)).toBe(month);
  });

  it('a row of a month with no partition lands in the default one, and the sweep moves it to a partition made for it', async () => {
    const far = await event('2031-05-10T12:00:00Z', { type: 'renewal' });
    const past = await event('2019-02-03T04:05:06Z', { type: 'renewal' });
    expect(await partitionOf(far.id as string)).toBe('events_default');
    expect(await partitionOf(past.id as string)).toBe('events_default');

    expect(await upkeep().sweep()).toBe(2);
    expect(await partitionOf(far.id as string)).toBe('events_y2031m05');
    expect(await partitionOf(past.id as string)).toBe('events_y2019m02');
    const [{ n }] = await t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE workspace_id = $1 AND type = 'renewal'`,
      [workspaceId],
    );
    expect(n).toBe(2);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM events_default`)).toEqual([{ n: 0 }]);
  });

  it('the sweep makes the current month and three ahead', async () => {
    await upkeep().sweep(new Date('2028-11-20T00:00:00Z'));
    expect(await partitions()).toEqual(
      expect.arrayContaining(['events_y2028m11', 'events_y2028m12', 'events_y2029m01', 'events_y2029m02']),
    );
    expect(await partitions()).not.toContain('events_y2029m03');
  });
});

describe('reads prune by time', () => {
  beforeAll(async () => {
    await t.make.event(workspaceId, personId, { type: 'purchase', occurred_at: '2028-12-05T00:00:00Z' });
    await t.db.query('ANALYZE events');
  });

  it('a chart reads the partitions of its range only', async () => {
    const question = parseChartInput({
      event: 'purchase',
      measure: 'count',
      interval: 'day',
      from: '2028-12-01T00:00:00Z',
      to: '2028-12-31T23:59:59Z',
    });
    const { sql, args } = chartStatement(workspaceId, question);
    expect(await scanned(sql, args)).toEqual(['events_y2028m12']);
  });

  it('a timeline page after a position leaves the later months out', async () => {
    const at = BigInt(Date.parse('2028-12-10T00:00:00Z')) * 1000n;
    const { text, args } = timelinePagesStatement(workspaceId, [personId], {
      limit: 21,
      after: { atMicros: String(at), id: 'evt_z' },
    });
    const read = await scanned(text, args);
    expect(read).toContain('events_y2028m12');
    expect(read).not.toContain('events_y2029m01');
    expect(read).not.toContain('events_y2031m05');
  });

  it('expiry can delete through each partition’s expiry index', async () => {
    // These partitions hold a row or two, so the planner rightly prefers reading them whole: asked not to, it uses the index of each.
    const plan = await t.db.transaction(async (m) => {
      await m.query(`SET LOCAL enable_seqscan = off`);
      const [row] = await m.query(
        `EXPLAIN (FORMAT JSON) DELETE FROM events WHERE expires_at IS NOT NULL AND expires_at <= $1`,
        [new Date().toISOString()],
      );
      return JSON.stringify(row['QUERY PLAN']);
    });
    expect(plan).not.toContain('Seq Scan');
    expect(plan.match(/"Index Name":"events_\w+_expiry"/g)?.length).toBe((await partitions()).length);
  });

  it('expiry is unchanged: only expired rows go, from any month', async () => {
    const gone = await event('2028-12-06T00:00:00Z', { expires_at: '2028-12-07T00:00:00Z' });
    const kept = await event('2028-12-06T00:00:00Z', { expires_at: '2099-01-01T00:00:00Z' });
    expect(await t.get(TimelineRepository).deleteExpired(new Date('2030-01-01T00:00:00Z'))).toBe(1);
    expect(await partitionOf(gone.id as string)).toBeUndefined();
    expect(await partitionOf(kept.id as string)).toBe('events_y2028m12');
  });
});

// Last: it turns this file's events table back into a plain one, as before the migration, and converts it.
describe('converting a plain events table with rows', () => {
  const migration = EVENTS_MIGRATIONS.find((m) => m.name === 'EventsByMonth1766300000000')!;
  const ROWS = 12_000;
  let runner: QueryRunner;
  beforeAll(async () => {
    runner = t.db.createQueryRunner();
    await runner.startTransaction();
    await new migration().down(runner);
    await runner.commitTransaction();
    await t.db.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, properties)
       SELECT $1, 'evt_cv' || lpad(n::text, 6, '0'), timestamptz '2025-01-01' + n * interval '1 hour', $2, 'pageview', jsonb_build_object('n', n)
         FROM generate_series(1, $3) n`,
      [workspaceId, personId, ROWS],
    );
  });
  afterAll(() => runner.release());

  const shape = async () =>
    (await t.db.query(`SELECT relkind FROM pg_class WHERE oid = 'events'::regclass`))[0].relkind;
  const all = async (): Promise<Map<string, unknown>> =>
    new Map(
      (await t.db.query(`SELECT id, properties FROM events WHERE workspace_id = $1`, [workspaceId])).map(
        (r: { id: string; properties: unknown }) => [r.id, r.properties],
      ),
    );

  it('keeps every row, and a write, an update and a delete made meanwhile, each seen exactly once throughout', async () => {
    expect(await shape()).toBe('r');
    const before = await all();
    expect(before.size).toBeGreaterThan(ROWS);

    await runner.startTransaction();
    await new migration().up(runner);
    await runner.commitTransaction();
    expect(await shape()).toBe('r'); // still the old table, now mirrored into the new one
    expect(await all()).toEqual(before);

    // One batch, then changes on both sides of the copy's mark.
    expect(await upkeep().convert(0)).toBe(5_000);
    const written = newId('evt');
    await t.get(TimelineRepository).insertRows(t.db.manager, [
      {
        workspace_id: workspaceId,
        id: written,
        occurred_at: '2025-03-01T00:00:00Z',
        person_id: personId,
        type: 'signup',
        value: null,
        properties: { n: 'new' },
        detail: null,
        source: null,
        expires_at: null,
      },
    ]);
    await t.db.query(
      `UPDATE events SET properties = '{"n": "changed"}' WHERE workspace_id = $1 AND id IN ('evt_cv000001', 'evt_cv011000')`,
      [workspaceId],
    );
    await t.db.query(`DELETE FROM events WHERE workspace_id = $1 AND id IN ('evt_cv000002', 'evt_cv011001')`, [
      workspaceId,
    ]);
    const expected = new Map(before);
    expected.set(written, { n: 'new' });
    expected.set('evt_cv000001', { n: 'changed' });
    expected.set('evt_cv011000', { n: 'changed' });
    expected.delete('evt_cv000002');
    expected.delete('evt_cv011001');
    expect(await all()).toEqual(expected);

    await upkeep().sweep();
    expect(await shape()).toBe('p');
    expect(await all()).toEqual(expected);
    const [{ n, distinct }] = await t.db.query(
      `SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct FROM events WHERE workspace_id = $1`,
      [workspaceId],
    );
    expect({ n, distinct }).toEqual({ n: expected.size, distinct: expected.size });
    // The rows went straight to their months, made before the copy reached them.
    expect(await t.db.query(`SELECT count(*)::int AS n FROM events_default`)).toEqual([{ n: 0 }]);
    expect(await partitions()).toEqual(
      expect.arrayContaining(['events_y2025m01', 'events_y2025m12', 'events_y2026m05']),
    );
    await upkeep().sweep();
    expect(
      await t.db.query(
        `SELECT to_regclass('events_legacy') AS legacy, to_regclass('events_partitioned') AS converting`,
      ),
    ).toEqual([{ legacy: null, converting: null }]);
  });
});
