// Charts from rollups (docs/decisions.md#charts-from-rollups): after ingest, folds, a first touch given
// late, merges, an erasure and expiry, every chart answers what the events-only statement answers
// (folded, half folded and not folded), and the rollups the folds and triggers kept equal a rebuild's.
import {
  ChartInput,
  ChartRollups,
  chartSeries,
  ChartsService,
  chartStatement,
  IngestService,
  parseChartInput,
  TimelineRepository,
} from '@app/events';
import { PersonDataService } from '@app/people';
import { WorkspaceEntity, WorkspacesService } from '@app/workspaces';
import { useMedium } from './medium';

const t = useMedium();
let workspace: WorkspaceEntity;
beforeAll(async () => {
  const made = await t.get(WorkspacesService).create({ slug: 'medium-chart-rollups', owner: 'owner@example.com' });
  workspace = await t.get(WorkspacesService).get(made.workspace.id);
});

const ingest = async (items: unknown[]) => {
  const results = await t.get(IngestService).ingest(workspace, items, { publicDoor: false });
  expect(results.filter((r) => !(r as { ok?: boolean }).ok)).toEqual([]);
  return results as Array<{ id: string }>;
};
const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * 3_600_000 + (hours % 7) * 61_000).toISOString();
const utm = (i: number) =>
  i % 4 === 3
    ? undefined
    : { utm: { source: ['google', 'bing', 'news'][i % 3], medium: i % 2 ? 'cpc' : undefined, campaign: `c${i % 5}` } };

/** Purchases of `people` people (emails p{i}@…), each `each` events spread over January, values 1..9. */
function purchases(people: number, each: number, offset: number, extra: Record<string, unknown> = {}) {
  return Array.from({ length: people * each }, (_, n) => {
    const i = n % people;
    return {
      type: 'purchase',
      email: `p${i}@example.com`,
      occurred_at: at(((n * 37 + offset) % 740) + 0.25),
      value: 1 + ((n + offset) % 9),
      source: utm(i),
      ...extra,
    };
  });
}

const RANGES = [
  { from: '2026-01-01T00:00:00Z', to: '2026-01-31T23:59:59Z' },
  { from: '2026-01-03T05:30:00Z', to: '2026-01-17T13:15:00Z' },
  { from: '2026-01-05T10:10:00Z', to: '2026-01-06T03:20:00Z' },
  { from: '2026-01-05T10:10:00Z', to: '2026-01-05T10:50:00Z' },
  { from: '2026-01-05T00:00:00Z', to: '2026-01-09T00:00:00Z' },
  // The whole of January: people from the month's own sketch.
  { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' },
];
const MEASURES = ['count', 'sum_value', 'people'];
const INTERVALS = ['hour', 'day', 'week', 'month'];
const BREAKDOWNS = [undefined, 'source', 'medium', 'campaign'];
/**
 * Every measure, interval and breakdown together (48), each over the range (m + 2i + 3b) mod 6, which puts every
 * pair of a range, a measure, an interval and a breakdown in some question; and people over the whole of January
 * at every interval and breakdown, the one range read from a month's own sketch.
 */
const QUESTIONS: ChartInput[] = [
  ...MEASURES.flatMap((measure, m) =>
    INTERVALS.flatMap((interval, i) =>
      BREAKDOWNS.map((breakdown, b) => ({
        event: 'purchase',
        measure,
        interval,
        breakdown,
        ...RANGES[(m + 2 * i + 3 * b) % 6],
      })),
    ),
  ),
  ...INTERVALS.flatMap((interval) =>
    BREAKDOWNS.map((breakdown) => ({ event: 'purchase', measure: 'people', interval, breakdown, ...RANGES[5] })),
  ),
];

/** Every question answered by ChartsService and by the events-only statement, side by side. */
async function expectChartsExact() {
  const service = t.get(ChartsService);
  const got = [];
  const want = [];
  for (const input of QUESTIONS) {
    got.push({ input, ...(await service.chart(workspace.id, input)) });
    const question = parseChartInput(input);
    const { sql, args } = chartStatement(workspace.id, question);
    want.push({ input, series: chartSeries(question, await t.db.query(sql, args)) });
  }
  expect(got).toEqual(want);
}

const rollups = () => t.db.query(`SELECT * FROM events_rollup ORDER BY 1, 2, 3, 4, 5, 6`);
const listed = async () => Number((await t.db.query(`SELECT count(*) AS n FROM events_rollup_dirty`))[0].n);
/** The people sketches, each as its sorted hashes (exact) or its registers: the same sets compare equal. */
const sketches = async () =>
  (
    await t.db.query(
      `SELECT workspace_id, type, grain, at, keyed, touch, sketch FROM events_rollup_people ORDER BY 1, 2, 3, 4, 5, 6`,
    )
  ).map((r: { sketch: Buffer }) => {
    const hashes =
      r.sketch[0] === 0
        ? Array.from({ length: (r.sketch.length - 1) / 8 }, (_, i) =>
            r.sketch.subarray(1 + 8 * i, 9 + 8 * i).toString('hex'),
          ).sort()
        : r.sketch.toString('hex');
    return { ...r, sketch: hashes };
  });

/** Folds until no hour is listed: every sketch then holds what the events say. */
async function foldAll() {
  for (let n = 0; (await listed()) > 0 || n === 0; n++) await fold();
}

/** The rollups and sketches as the folds and triggers left them (every row folded) equal a rebuild's from events. */
async function expectRebuildAgrees() {
  await foldAll();
  const kept = await rollups();
  const sketched = await sketches();
  expect(kept.length).toBeGreaterThan(0);
  expect(sketched.length).toBeGreaterThan(0);
  await t.get(ChartRollups).rebuild();
  expect(await listed()).toBe(0);
  expect(await rollups()).toEqual(kept);
  expect(await sketches()).toEqual(sketched);
}

const fold = () => t.get(ChartRollups).fold();
const unfolded = async () =>
  Number(
    (
      await t.db.query(
        `SELECT count(*) AS n FROM events WHERE received_at >= (SELECT folded_to FROM events_rollup_mark)`,
      )
    )[0].n,
  );

// Each test makes several full comparisons (expectChartsExact: every question, both ways), seconds each on a
// loaded machine, and one waits for rows to expire: past jest's 30 s there.
jest.setTimeout(120_000);

describe('charts from rollups', () => {
  it('answer as the events do before a fold, after it, and half folded', async () => {
    await ingest(purchases(12, 8, 0));
    await ingest([{ type: 'purchase', anon_id: 'no-touch', occurred_at: at(100), value: 5 }]);
    await expectChartsExact();
    expect(await fold()).toBeGreaterThan(0);
    expect(await unfolded()).toBe(0);
    const [{ n }] = await t.db.query(
      `SELECT sum(events) AS n FROM events_rollup WHERE workspace_id = $1 AND type = 'purchase' AND grain = 24 AND NOT keyed`,
      [workspace.id],
    );
    expect(Number(n)).toBe(12 * 8 + 1);
    // People charts now read sketches of hours, days, weeks and months.
    const grains = await t.db.query(
      `SELECT grain, keyed, count(*)::int AS n FROM events_rollup_people WHERE workspace_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [workspace.id],
    );
    expect(grains.map((g: { grain: number; keyed: boolean }) => `${g.grain} ${g.keyed}`)).toEqual([
      '1 false',
      '1 true',
      '24 false',
      '24 true',
      '168 false',
      '168 true',
      '744 false',
      '744 true',
    ]);
    await expectChartsExact();
    await ingest(purchases(15, 3, 11));
    expect(await unfolded()).toBeGreaterThan(0);
    await expectChartsExact();
    await expectRebuildAgrees();
  });

  it("move a person's folded rows between keys when their first touch is given late", async () => {
    await fold();
    // The anonymous person's events are folded under (none); their first touch arrives with a later post.
    await ingest([
      {
        type: 'purchase',
        anon_id: 'no-touch',
        occurred_at: at(300),
        value: 2,
        source: { utm: { source: 'late', campaign: 'late-c' } },
      },
    ]);
    await expectChartsExact();
    await fold();
    await expectChartsExact();
    await expectRebuildAgrees();
  });

  it('follow merges and an erasure', async () => {
    await fold();
    const id = async (email: string) =>
      (await t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND email = $2`, [workspace.id, email]))[0].id;
    // Posts naming two people merge them in the ingest (the earlier first touch stays).
    await ingest([
      { type: 'purchase', anon_id: 'anon-x', occurred_at: at(50), value: 3, source: { utm: { source: 'other' } } },
    ]);
    await fold();
    expect(await listed()).toBe(0);
    await ingest([{ type: 'identify', email: 'p3@example.com', anon_id: 'no-touch' }]);
    await ingest([{ type: 'identify', email: 'p7@example.com', anon_id: 'anon-x' }]);
    // The merges moved folded rows to the survivors: their hours are listed, read from events until sketched again.
    expect(await listed()).toBeGreaterThan(0);
    await expectChartsExact();
    await foldAll();
    await expectChartsExact();
    await t
      .get(PersonDataService)
      .erase({ workspaceId: workspace.id, memberId: 'mem_test', role: 'owner' }, await id('p4@example.com'));
    await expectChartsExact();
    await fold();
    await expectChartsExact();
    await expectRebuildAgrees();
  });

  it('leave out expired rows before the sweep deletes them, and after', async () => {
    await fold();
    // Far enough ahead that the post, a fold and a comparison finish first: a comparison timed here, on a
    // loaded machine, sets how far (the check before expiry is only meaningful if it ends before it).
    const started = Date.now();
    await expectChartsExact();
    const expiresAt = new Date(Date.now() + Math.max(5000, 2 * (Date.now() - started) + 2000)).toISOString();
    await ingest(
      purchases(6, 4, 5, { expires_at: expiresAt, occurred_at: undefined }).map((item, n) => ({
        ...item,
        occurred_at: at(n * 29 + 3),
      })),
    );
    await fold();
    await expectChartsExact();
    expect((await t.db.query(`SELECT now() < $1::timestamptz AS before`, [expiresAt]))[0].before).toBe(true); // compared before expiry
    while ((await t.db.query(`SELECT now() <= $1::timestamptz AS waiting`, [expiresAt]))[0].waiting)
      await new Promise((r) => setTimeout(r, 200));
    await expectChartsExact(); // expired, folded, not swept: taken away at read
    const sketched = await sketches();
    await fold();
    // Their hours are listed and, this few, sketched again by the same fold: their people left the sketches.
    expect(await sketches()).not.toEqual(sketched);
    await expectChartsExact(); // taken away by the fold
    await foldAll();
    await expectChartsExact();
    const [{ expired }] = await t.db.query(
      `SELECT count(*)::int AS expired FROM events WHERE workspace_id = $1 AND expires_at <= now()`,
      [workspace.id],
    );
    expect(expired).toBeGreaterThan(0);
    expect(await t.get(TimelineRepository).deleteExpired(new Date())).toBe(expired);
    await expectChartsExact();
    await expectRebuildAgrees();
  });

  it("take an erased person's folded rows away in the statement that deletes them", async () => {
    await fold();
    const before = await rollups();
    const [person] = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND email = 'p5@example.com'`, [
      workspace.id,
    ]);
    const sketched = await sketches();
    await t.get(PersonDataService).erase({ workspaceId: workspace.id, memberId: 'mem_test', role: 'owner' }, person.id);
    expect(await rollups()).not.toEqual(before);
    expect(await listed()).toBeGreaterThan(0);
    await expectChartsExact();
    await foldAll();
    expect(await sketches()).not.toEqual(sketched); // the person's hash has left every sketch of their hours
    await expectChartsExact();
    await expectRebuildAgrees();
  });

  it('let a post whose key rewrite changes no row through while a fold holds the lock', async () => {
    const folding = t.db.createQueryRunner();
    await folding.connect();
    await folding.startTransaction();
    try {
      const [{ changed }] = await folding.query('SELECT (events_rollup_fold()).changed AS changed');
      expect(changed).not.toBeNull(); // the fold took the rollups' lock, held to the end of its transaction
      // A campaign this process has not named: the write names it with the statement that rewrites keys, here none.
      const posted = ingest([
        {
          type: 'purchase',
          email: 'fresh@example.com',
          occurred_at: at(5),
          value: 1,
          source: { utm: { source: 'fresh', campaign: 'fresh-c' } },
        },
      ]);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<string>(
        (resolve) => (timer = setTimeout(() => resolve('waited for the fold'), 5_000)),
      );
      expect(await Promise.race([posted.then(() => 'written'), waited])).toBe('written');
      clearTimeout(timer);
    } finally {
      await folding.rollbackTransaction();
      await folding.release();
    }
    await expectChartsExact();
  });
});
