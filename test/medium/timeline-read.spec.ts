// The events key is the timeline's order (workspace, person, occurred_at, id), so a page of a
// person's timeline is read backwards from the key, stops after the page, and sorts nothing, ties on
// occurred_at included; and the ingest's rows go into the key, the chart index and the export's, no more.
import { TimelinePageQuery, timelinePagesStatement, TimelineReadRepository } from '@app/events';
import { Medium, startMedium } from './medium';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
const ROWS = 4_000; // for the busy person, two rows per instant
const LIMIT = 21;
const OTHERS = 40_000; // rows of 2,000 other people

let t: Medium;
let workspaceId: string;
let busy: string;
let quiet: string;
beforeAll(async () => {
  t = await startMedium();
  workspaceId = (await t.make.workspace()).id;
  busy = (await t.make.person(workspaceId)).id;
  quiet = (await t.make.person(workspaceId)).id;
  await t.db.query(
    `INSERT INTO events (workspace_id, id, occurred_at, person_id, type)
     SELECT $1, 'evt_tl' || lpad(n::text, 6, '0'), date_trunc('month', now()) + (n / 2) * interval '1 second', $2,
            CASE WHEN n % 3 = 0 THEN 'signup' ELSE 'pageview' END
       FROM generate_series(1, $3) n`,
    [workspaceId, busy, ROWS],
  );
  await t.make.event(workspaceId, quiet);
  // The rest of the workspace: many people in the same hours, as a real one has, so the range of the
  // workspace's time is no short cut to one person's rows.
  await t.db.query(
    `INSERT INTO events (workspace_id, id, occurred_at, person_id, type)
     SELECT $1, 'evt_others' || lpad(n::text, 6, '0'), date_trunc('month', now()) + (n / 20) * interval '1 second',
            'per_others' || (n % 2000), 'pageview'
       FROM generate_series(1, $2) n`,
    [workspaceId, OTHERS],
  );
  await t.db.query('ANALYZE events');
}, 60_000);
afterAll(() => t.close());

async function plan(query: TimelinePageQuery, people: string[]): Promise<PlanNode[]> {
  const { text, args } = timelinePagesStatement(workspaceId, people, query);
  const [row] = await t.db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, args);
  return nodes(row['QUERY PLAN'][0].Plan);
}

it("reads a busy person's page backwards on the events key, stopping at the page, with no sort", async () => {
  const rows = await t.get(TimelineReadRepository).pages(workspaceId, [busy], { limit: LIMIT });
  const middle = rows[LIMIT - 1];
  for (const query of [{ limit: LIMIT }, { limit: LIMIT, after: { atMicros: middle.at_micros, id: middle.id } }]) {
    const all = await plan(query, [busy]);
    expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
    expect(all.map((n) => n['Node Type'])).not.toContain('Incremental Sort');
    // The key of each month's partition (docs/decisions.md#events-by-month), merged in order.
    const scans = all.filter((n) => /^events_\w+_pkey$/.test(n['Index Name'] ?? ''));
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      expect(scan['Scan Direction']).toBe('Backward');
      // A person's page: one pass over the key of each month, read no further than the page.
      expect(scan['Actual Loops']).toBe(1);
    }
    expect(scans.reduce((sum, scan) => sum + scan['Actual Rows']! * scan['Actual Loops']!, 0)).toBeLessThanOrEqual(
      LIMIT + 1,
    );
  }
});

it('pages through ties on occurred_at by id, newest first, with nothing missed or repeated', async () => {
  const repo = t.get(TimelineReadRepository);
  const seen: string[] = [];
  let after: TimelinePageQuery['after'];
  for (let page = 0; page < 5; page++) {
    const rows = await repo.pages(workspaceId, [busy], { limit: 7, after });
    seen.push(...rows.map((r) => r.id));
    const last = rows[rows.length - 1];
    after = { atMicros: last.at_micros, id: last.id };
  }
  const expected = Array.from({ length: 35 }, (_, i) => `evt_tl${String(ROWS - i).padStart(6, '0')}`);
  expect(seen).toEqual(expected);
});

it('the events table keeps three btrees besides the expiry one: the key, the chart index and the export index', async () => {
  const indexes: Array<{ indexname: string; indexdef: string }> = await t.db.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'events' AND indexdef NOT LIKE '% USING brin %' ORDER BY indexname`,
  );
  expect(indexes.map((i) => i.indexname)).toEqual(['events_chart', 'events_expiry', 'events_export', 'events_pkey']);
  expect(indexes.find((i) => i.indexname === 'events_pkey')!.indexdef).toContain(
    '(workspace_id, person_id, occurred_at, id)',
  );
});
