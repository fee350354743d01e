import { bucketStart, bucketStarts, chartSeries, parseChartInput } from './chart-rule';

const at = (iso: string) => new Date(iso);

describe('chart buckets are UTC; weeks start on Monday', () => {
  it.each([
    ['hour', '2026-03-04T10:59:59.999Z', '2026-03-04T10:00:00.000Z'],
    ['day', '2026-03-04T23:59:00Z', '2026-03-04T00:00:00.000Z'],
    ['week', '2026-03-08T12:00:00Z', '2026-03-02T00:00:00.000Z'],
    ['week', '2026-03-02T00:00:00Z', '2026-03-02T00:00:00.000Z'],
    ['month', '2026-12-31T23:00:00Z', '2026-12-01T00:00:00.000Z'],
  ] as const)('%s of %s starts %s', (interval, when, start) => {
    expect(bucketStart(at(when), interval).toISOString()).toBe(start);
  });

  it('every bucket from the one holding from to the one holding to', () => {
    expect(
      bucketStarts(at('2026-01-30T12:00:00Z'), at('2026-03-01T00:00:00Z'), 'month').map((d) => d.toISOString()),
    ).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
    expect(bucketStarts(at('2026-01-01T00:00:00Z'), at('2026-01-01T23:00:00Z'), 'hour')).toHaveLength(24);
  });

  it('at most 1,000 buckets', () => {
    expect(bucketStarts(at('2026-01-01T00:00:00Z'), at('2026-02-11T15:00:00Z'), 'hour')).toHaveLength(1000);
    expect(() => bucketStarts(at('2026-01-01T00:00:00Z'), at('2026-02-11T16:00:00Z'), 'hour')).toThrow(/at most 1000/);
  });
});

describe('chart input', () => {
  const base = {
    event: 'purchase',
    measure: 'count',
    interval: 'day',
    from: '2026-01-01T00:00:00Z',
    to: '2026-01-03T00:00:00Z',
  };

  it("takes the spec's words", () => {
    expect(parseChartInput({ ...base, breakdown: 'campaign' })).toMatchObject({
      event: 'purchase',
      builtIn: true,
      measure: 'count',
      breakdown: 'campaign',
    });
    expect(parseChartInput({ ...base, event: 'report_built' }).builtIn).toBe(false);
  });

  it.each([
    [{ measure: 'avg' }, 'invalid_field'],
    [{ interval: 'minute' }, 'invalid_field'],
    [{ breakdown: 'os' }, 'invalid_field'],
    [{ from: 'soon' }, 'invalid_field'],
    [{ from: '2026-02-01T00:00:00Z' }, 'invalid_field'],
    [{ event: 'note' }, 'unknown_event'],
    [{ event: 'stage_changed' }, 'unknown_event'],
    [{ event: 'Bad Name' }, 'unknown_event'],
  ])('%j is refused with %s', (change, code) => {
    expect(() => parseChartInput({ ...base, ...change })).toThrow(expect.objectContaining({ code }));
  });
});

describe('chart series', () => {
  const question = parseChartInput({
    event: 'purchase',
    measure: 'count',
    interval: 'day',
    from: '2026-01-01T00:00:00Z',
    to: '2026-01-03T00:00:00Z',
  });

  it('one series all, empty buckets 0', () => {
    expect(chartSeries(question, [{ bucket: at('2026-01-02T00:00:00Z'), key: null, value: 4 }])).toEqual([
      {
        key: 'all',
        points: [
          { at: at('2026-01-01T00:00:00Z'), value: 0 },
          { at: at('2026-01-02T00:00:00Z'), value: 4 },
          { at: at('2026-01-03T00:00:00Z'), value: 0 },
        ],
      },
    ]);
    expect(chartSeries(question, [])[0].points.map((p) => p.value)).toEqual([0, 0, 0]);
  });

  it('a series per key, largest first, a missing key as (none)', () => {
    const broken = { ...question, breakdown: 'source' as const };
    const series = chartSeries(broken, [
      { bucket: at('2026-01-01T00:00:00Z'), key: 'google', value: 1 },
      { bucket: at('2026-01-01T00:00:00Z'), key: null, value: 2 },
      { bucket: at('2026-01-03T00:00:00Z'), key: 'google', value: 5 },
    ]);
    expect(series.map((s) => [s.key, s.points.map((p) => p.value)])).toEqual([
      ['google', [1, 0, 5]],
      ['(none)', [2, 0, 0]],
    ]);
  });
});
