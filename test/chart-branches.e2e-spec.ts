// chart(input) on both shapes of its statement (libs/events/src/charts/chart-statement.ts): a branch per
// bucket (up to 100 buckets; broken down, joined to people outside the branches) and one branch over the
// whole range (more buckets), against values worked out by hand; bounds inside a bucket; and the plans
// they allow.
import { CreatedWorkspace } from '@app/workspaces';
import { chartStatement, parseChartInput } from '@app/events';
import { startApp, TestApp } from './harness';

let t: TestApp;
let ws: CreatedWorkspace;
// Values only: the bucket starts are proven in admin-charts.e2e-spec.ts, and hours() lays them out here.
const CHART = `query($input: ChartInput!) { chart(input: $input) { series { key points { value } } } }`;

beforeAll(async () => {
  t = await startApp();
  ws = await t.workspace();
  const post = (events: unknown[], key = ws.secretKey) =>
    t.request('POST', '/api/v1/events', { key, body: { events } });
  await post([
    {
      type: 'identify',
      email: 'a@example.com',
      source: { utm: { source: 'google', medium: 'cpc', campaign: 'spring' } },
    },
    { type: 'identify', email: 'b@example.com', source: { referrer: 'https://news.ycombinator.com/item?id=1' } },
    { type: 'identify', email: 'c@example.com' },
  ]);
  const buy = (email: string, value: number, at: string, extra: Record<string, unknown> = {}) => ({
    type: 'purchase',
    email,
    value,
    occurred_at: at,
    ...extra,
  });
  await post([
    buy('a@example.com', 10, '2026-02-01T00:00:00Z'),
    buy('a@example.com', 5, '2026-02-01T00:59:59Z'),
    buy('b@example.com', 20, '2026-02-01T00:30:00Z'),
    buy('b@example.com', 7, '2026-02-02T13:15:00Z'),
    buy('c@example.com', 3, '2026-02-02T13:45:00Z'),
    buy('a@example.com', 1, '2026-02-04T23:59:59Z'),
    buy('c@example.com', 4, '2026-02-05T12:00:00Z'),
    buy('b@example.com', 100, '2026-02-02T13:20:00Z', {
      expires_at: '2099-01-01T00:00:00Z',
      properties: { mark: 'unswept' },
    }),
    buy('a@example.com', 50, '2026-01-31T23:59:59Z'),
    buy('c@example.com', 9, '2026-01-28T00:10:00Z'),
    buy('c@example.com', 6, '2026-01-28T00:45:00Z'),
    { type: 'pageview', email: 'a@example.com', occurred_at: '2026-02-01T00:10:00Z' },
  ]);
  const other = await t.workspace();
  await post([buy('a@example.com', 1000, '2026-02-01T00:00:00Z')], other.secretKey);
  // Expired but not swept yet: charts must leave it out before the sweep deletes it.
  await t.make.age('events', 'expires_at', '1 second', {
    workspace_id: ws.workspace.id,
    "properties->>'mark'": 'unswept',
  });
});
afterAll(() => t.close());

type Points = Record<string, number>;
/** Every hour from `from` to `to`, 0 but where `values` (hour start -> value) says otherwise. */
function hours(from: string, to: string, values: Points): number[] {
  const out: number[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += 3_600_000)
    out.push(values[new Date(at).toISOString()] ?? 0);
  return out;
}
const chart = async (input: Record<string, unknown>) => {
  const answer = await t.gql(CHART, { input: { event: 'purchase', interval: 'hour', ...input } }, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return Object.fromEntries(
    answer.data.chart.series.map((s: { key: string; points: Array<{ value: number }> }) => [
      s.key,
      s.points.map((p) => p.value),
    ]),
  );
};

const H0 = '2026-02-01T00:00:00.000Z';
const H13 = '2026-02-02T13:00:00.000Z';
const H23 = '2026-02-04T23:00:00.000Z';
const D5 = '2026-02-05T12:00:00.000Z';
const FROM = '2026-02-01T00:00:00Z';

describe.each([
  // 96 hours: a branch per bucket. 120 hours: one branch over the whole range, with C's purchase of 4 on the fifth day.
  ['a branch per bucket', '2026-02-04T23:59:59Z', false],
  ['one branch for the range', '2026-02-05T23:59:59Z', true],
] as const)('hourly chart, %s', (_shape, to, fifth) => {
  const input = { from: FROM, to };
  const onFifth = (value: number): Points => (fifth ? { [D5]: value } : {});

  it('counts, sums and counts people per hour; expired rows, other types and workspaces left out', async () => {
    expect(await chart({ ...input, measure: 'count' })).toEqual({
      all: hours(FROM, to, { [H0]: 3, [H13]: 2, [H23]: 1, ...onFifth(1) }),
    });
    expect(await chart({ ...input, measure: 'sum_value' })).toEqual({
      all: hours(FROM, to, { [H0]: 35, [H13]: 10, [H23]: 1, ...onFifth(4) }),
    });
    expect(await chart({ ...input, measure: 'people' })).toEqual({
      all: hours(FROM, to, { [H0]: 2, [H13]: 2, [H23]: 1, ...onFifth(1) }),
    });
  });

  it('breaks people and sums down by first-touch source', async () => {
    expect(await chart({ ...input, measure: 'people', breakdown: 'source' })).toEqual({
      google: hours(FROM, to, { [H0]: 1, [H23]: 1 }),
      'news.ycombinator.com': hours(FROM, to, { [H0]: 1, [H13]: 1 }),
      '(none)': hours(FROM, to, { [H13]: 1, ...onFifth(1) }),
    });
    expect(await chart({ ...input, measure: 'sum_value', breakdown: 'source' })).toEqual({
      google: hours(FROM, to, { [H0]: 15, [H23]: 1 }),
      'news.ycombinator.com': hours(FROM, to, { [H0]: 20, [H13]: 7 }),
      '(none)': hours(FROM, to, { [H13]: 3, ...onFifth(4) }),
    });
  });
});

describe('bounds inside a bucket: from and to both inclusive, to the millisecond', () => {
  it('a branch per bucket leaves out what is before from in the first bucket and after to in the last', async () => {
    const input = { measure: 'sum_value', from: '2026-02-01T00:30:00Z', to: '2026-02-02T13:15:00Z' };
    expect(await chart(input)).toEqual({ all: hours(H0, H13, { [H0]: 25, [H13]: 7 }) });
    expect(await chart({ ...input, to: '2026-02-02T13:14:59.999Z' })).toEqual({ all: hours(H0, H13, { [H0]: 25 }) });
  });

  it('so does one branch for the range (134 hours)', async () => {
    const first = '2026-01-28T00:00:00.000Z';
    const lastOfJanuary = '2026-01-31T23:00:00.000Z';
    const input = { from: '2026-01-28T00:30:00Z', to: '2026-02-02T13:15:00Z' };
    expect(hours(first, H13, {})).toHaveLength(134);
    expect(await chart({ ...input, measure: 'sum_value' })).toEqual({
      all: hours(first, H13, { [first]: 6, [lastOfJanuary]: 50, [H0]: 35, [H13]: 7 }),
    });
    expect(await chart({ ...input, measure: 'count' })).toEqual({
      all: hours(first, H13, { [first]: 1, [lastOfJanuary]: 1, [H0]: 3, [H13]: 1 }),
    });
  });
});

describe('plans', () => {
  const question = (input: Record<string, unknown>) =>
    parseChartInput({
      event: 'purchase',
      measure: 'people',
      interval: 'hour',
      from: '2026-02-01T00:00:00Z',
      to: '2026-02-04T23:59:59Z',
      ...input,
    });
  const explain = async (sql: string, args: unknown[], settings: string[] = []) =>
    t.db.transaction(async (m) => {
      for (const setting of settings) await m.query(`SET LOCAL ${setting}`);
      const rows = await m.query(`EXPLAIN (VERBOSE) ${sql}`, args);
      return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    });

  it('the branches of a chart may run on parallel workers', async () => {
    const { sql, args } = chartStatement(ws.workspace.id, question({}));
    const free = [
      'parallel_setup_cost = 0',
      'parallel_tuple_cost = 0',
      'min_parallel_index_scan_size = 0',
      'min_parallel_table_scan_size = 0',
    ];
    expect(await explain(sql, args, free)).toContain('Parallel Append');
  });

  it.each([
    ['hour', '2026-02-05T23:59:59Z'],
    ['day', '2026-12-31T23:59:59Z'],
    ['week', '2028-12-31T23:59:59Z'],
    ['month', '2035-12-31T23:59:59Z'],
  ])('the %s statistics are on the very expression a whole-range chart groups by', async (interval, to) => {
    const { sql, args } = chartStatement(
      ws.workspace.id,
      question({ interval, to, measure: 'count', breakdown: 'source' }),
    );
    const [stats] = await t.db.query(
      `SELECT pg_get_statisticsobjdef_expressions(oid) AS e FROM pg_statistic_ext WHERE stxname = $1`,
      [`events_chart_${interval}`],
    );
    const expression = `date_trunc('${interval}'::text, (occurred_at AT TIME ZONE 'UTC'::text))`;
    expect(stats.e).toEqual([expression]);
    expect(await explain(sql, args)).toMatch(
      new RegExp(`Group Key: \\(?${expression.replace('(occurred_at', '(e.occurred_at').replace(/[()]/g, '\\$&')}`),
    );
  });
});
