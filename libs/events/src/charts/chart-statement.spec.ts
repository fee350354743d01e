import { parseChartInput } from './chart-rule';
import { chartBranches, chartStatement, MAX_CHART_BRANCHES } from './chart-statement';

const question = (input: Record<string, string | undefined>) =>
  parseChartInput({
    event: 'purchase',
    measure: 'count',
    interval: 'day',
    from: '2026-01-01T12:00:00Z',
    to: '2026-01-03T06:00:00Z',
    ...input,
  } as never);
const iso = (branches: ReturnType<typeof chartBranches>) =>
  branches.map((b) => [b.bucket?.toISOString(), b.lo.toISOString(), b.hi.toISOString()]);

describe('chart branches: whole buckets, none split between branches', () => {
  it.each([
    {},
    { measure: 'sum_value' },
    { measure: 'people' },
    { breakdown: 'source' },
    { measure: 'people', breakdown: 'campaign' },
  ])('%j: a branch per bucket, the first from from', (change) => {
    expect(iso(chartBranches(question(change)))).toEqual([
      ['2026-01-01T00:00:00.000Z', '2026-01-01T12:00:00.000Z', '2026-01-02T00:00:00.000Z'],
      ['2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'],
      ['2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z', '2026-01-04T00:00:00.000Z'],
    ]);
  });

  it(`past ${MAX_CHART_BRANCHES} buckets, one branch from from to the end of the last bucket`, () => {
    const hours = (to: string) =>
      chartBranches(question({ measure: 'people', interval: 'hour', from: '2026-01-01T00:30:00Z', to }));
    expect(hours('2026-01-05T03:59:59Z')).toHaveLength(MAX_CHART_BRANCHES);
    expect(iso(hours('2026-01-05T04:00:00Z'))).toEqual([
      [undefined, '2026-01-01T00:30:00.000Z', '2026-01-05T05:00:00.000Z'],
    ]);
  });

  it('months end where the next begins', () => {
    expect(
      chartBranches(question({ interval: 'month', from: '2026-01-31T00:00:00Z', to: '2026-02-01T00:00:00Z' })).map(
        (b) => b.hi.toISOString(),
      ),
    ).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });
});

describe('chart statement', () => {
  it.each([{}, { breakdown: 'source' }])(
    '%j: one statement, its branches joined by UNION ALL, every bound a parameter',
    (change) => {
      const { sql, args } = chartStatement('ws_1', question(change));
      expect(sql.split('UNION ALL')).toHaveLength(3);
      expect(args).toEqual([
        'ws_1',
        'purchase',
        '2026-01-03T06:00:00.000Z',
        ...chartBranches(question(change)).flatMap((b) => [b.bucket, b.lo, b.hi].map((d) => d!.toISOString())),
      ]);
    },
  );
});
