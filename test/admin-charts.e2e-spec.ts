// chart(input) against sums worked out by hand (docs/graphql.md#activity-and-charts): several first-touch sources,
// an expired row swept away, an expired row not yet swept, other types, another workspace.
import { chartStatement, parseChartInput, TimelineRepository } from '@app/events';
import { EVENTS_MIGRATIONS } from '@app/events/migrations';
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t, {}, 'all');
const CHART = `query($input: ChartInput!) { chart(input: $input) { series { key points { at value } } } }`;

beforeAll(async () => {
  const post = (body: unknown, key = ws.secretKey) => t.request('POST', '/api/v1/events', { key, body });
  // First touches: A from google/cpc/spring, B from a referrer, C with none.
  await post({
    type: 'identify',
    email: 'a@example.com',
    source: { utm: { source: 'google', medium: 'cpc', campaign: 'spring' } },
  });
  await post({
    type: 'identify',
    email: 'b@example.com',
    source: { referrer: 'https://news.ycombinator.com/item?id=1' },
  });
  await post({ type: 'identify', email: 'c@example.com' });
  const buy = (email: string, value: number, at: string, extra: Record<string, unknown> = {}) =>
    post({ type: 'purchase', email, value, occurred_at: at, ...extra });
  await buy('a@example.com', 10, '2026-01-01T10:00:00Z');
  await buy('a@example.com', 5, '2026-01-01T23:30:00Z');
  await buy('a@example.com', 7, '2026-01-03T08:00:00Z');
  await buy('a@example.com', 50, '2025-12-31T23:59:59Z');
  await buy('b@example.com', 20, '2026-01-01T12:00:00Z');
  await buy('b@example.com', 100, '2026-01-02T09:00:00Z', {
    expires_at: '2099-01-01T00:00:00Z',
    properties: { mark: 'swept' },
  });
  await buy('b@example.com', 1, '2026-01-02T10:00:00Z', {
    expires_at: '2099-01-01T00:00:00Z',
    properties: { mark: 'unswept' },
  });
  await buy('c@example.com', 3, '2026-01-03T20:00:00Z');
  await post({ type: 'pageview', email: 'c@example.com', occurred_at: '2026-01-03T20:00:00Z' });
  const other = await t.workspace();
  await post(
    { type: 'purchase', email: 'a@example.com', value: 1000, occurred_at: '2026-01-01T10:00:00Z' },
    other.secretKey,
  );

  const expire = (mark: string) =>
    t.make.age('events', 'expires_at', '1 second', { workspace_id: ws.workspace.id, "properties->>'mark'": mark });
  await expire('swept');
  expect(await t.app.get(TimelineRepository).deleteExpired(new Date())).toBe(1);
  await expire('unswept');
});

const DAYS = { event: 'purchase', interval: 'day', from: '2026-01-01T00:00:00Z', to: '2026-01-03T23:59:59Z' };
const chart = async (input: Record<string, unknown>) => {
  const answer = await t.gql(CHART, { input }, ws.secretKey);
  if (answer.errors) return answer.errors[0].extensions;
  return answer.data.chart.series.map((s: { key: string; points: Array<{ at: string; value: number }> }) => [
    s.key,
    s.points.map((p) => p.value),
  ]);
};

describe('chart', () => {
  it.each([
    ['count', [3, 0, 2]],
    ['sum_value', [35, 0, 10]],
    ['people', [2, 0, 2]],
  ])('%s by day, expired rows left out', async (measure, values) => {
    expect(await chart({ ...DAYS, measure })).toEqual([['all', values]]);
  });

  it('buckets start at UTC midnight and every one is there', async () => {
    const answer = await t.gql(CHART, { input: { ...DAYS, measure: 'count' } }, ws.secretKey);
    expect(answer.data.chart.series[0].points.map((p: { at: string }) => p.at)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
    ]);
  });

  it('breakdown by first-touch source counts per source, (none) for no first touch', async () => {
    expect(await chart({ ...DAYS, measure: 'count', breakdown: 'source' })).toEqual([
      ['google', [2, 0, 1]],
      ['(none)', [0, 0, 1]],
      ['news.ycombinator.com', [1, 0, 0]],
    ]);
  });

  it('breakdown by campaign sums values', async () => {
    expect(await chart({ ...DAYS, measure: 'sum_value', breakdown: 'campaign' })).toEqual([
      ['(none)', [20, 0, 3]],
      ['spring', [15, 0, 7]],
    ]);
    expect(await chart({ ...DAYS, measure: 'people', breakdown: 'medium' })).toEqual([
      ['(none)', [1, 0, 1]],
      ['cpc', [1, 0, 1]],
    ]);
  });

  it('weeks start on Monday and months on the first, in UTC', async () => {
    const week = await t.gql(
      CHART,
      { input: { ...DAYS, measure: 'count', interval: 'week', from: '2025-12-31T00:00:00Z' } },
      ws.secretKey,
    );
    expect(week.data.chart.series[0].points).toEqual([{ at: '2025-12-29T00:00:00.000Z', value: 6 }]);
    expect(
      await chart({
        ...DAYS,
        measure: 'sum_value',
        interval: 'month',
        from: '2025-12-01T00:00:00Z',
        to: '2026-01-31T23:59:59Z',
      }),
    ).toEqual([['all', [50, 45]]]);
  });

  it('a custom name is charted only once seen; bad input is refused', async () => {
    expect(await chart({ ...DAYS, event: 'report_built', measure: 'count' })).toMatchObject({
      code: 'unknown_event',
      status: 400,
    });
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'report_built', email: 'a@example.com', occurred_at: '2026-01-02T01:00:00Z' },
    });
    expect(await chart({ ...DAYS, event: 'report_built', measure: 'count' })).toEqual([['all', [0, 1, 0]]]);
    expect(
      await chart({
        ...DAYS,
        event: 'report_built',
        measure: 'count',
        from: '2025-01-01T00:00:00Z',
        to: '2025-01-02T00:00:00Z',
      }),
    ).toEqual([['all', [0, 0]]]);
    expect(await chart({ ...DAYS, event: 'note', measure: 'count' })).toMatchObject({ code: 'unknown_event' });
    expect(await chart({ ...DAYS, measure: 'median' })).toMatchObject({ code: 'invalid_field' });
    expect(await chart({ ...DAYS, measure: 'count', interval: 'hour', to: '2026-03-01T00:00:00Z' })).toMatchObject({
      code: 'invalid_field',
    });
  });

  it.each(['count', 'sum_value', 'people'])('the %s statement reads the covering index only', async (measure) => {
    await t.db.query('VACUUM ANALYZE events');
    const { sql, args } = chartStatement(ws.workspace.id, parseChartInput({ ...DAYS, measure }));
    const plan = await t.db.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      return m.query(`EXPLAIN ${sql}`, args);
    });
    // events_chart of each month's partition read (docs/decisions.md#events-by-month).
    expect(plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toMatch(
      /Index Only Scan using events_(\w+_)?chart/,
    );
  });
});

describe('sum_value sums the value given either way, once', () => {
  const FEB = {
    event: 'subscription_renewed',
    interval: 'day',
    from: '2026-02-01T00:00:00Z',
    to: '2026-02-01T23:59:59Z',
  };
  const renewal = (body: Record<string, unknown>) =>
    t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'subscription_renewed', email: 'a@example.com', occurred_at: '2026-02-01T09:00:00Z', ...body },
    });

  beforeAll(async () => {
    await renewal({ value: 3 });
    await renewal({ properties: { value: 5 } });
    await renewal({ value: 7, properties: { value: 100 } });
    await renewal({ properties: { value: '9' } });
    // Recorded before properties.value was the event's value: its value column left empty.
    await renewal({ properties: { value: 4, mark: 'before' } });
    await t.db.query(`UPDATE events SET value = NULL WHERE workspace_id = $1 AND properties->>'mark' = 'before'`, [
      ws.workspace.id,
    ]);
  });

  it('value, else properties.value (a number); given both ways, the top-level value', async () => {
    expect(await chart({ ...FEB, measure: 'sum_value' })).toEqual([['all', [15]]]);
    expect(await chart({ ...FEB, measure: 'sum_value', breakdown: 'campaign' })).toEqual([['spring', [15]]]);
  });

  it('rows recorded before are summed alike once migrated', async () => {
    const migration = EVENTS_MIGRATIONS.find((m) => m.name === 'ValueFromProperties1767340000000')!;
    await t.db.transaction((m) => new migration().up(m.queryRunner!));
    expect(await chart({ ...FEB, measure: 'sum_value' })).toEqual([['all', [19]]]);
  });
});
