import { parseChartInput } from './chart-rule';
import { rolledRange, rollupChartStatement } from './chart-rollup.statement';

const question = (from: string, to: string, interval = 'day', measure = 'count') =>
  parseChartInput({ event: 'purchase', measure, interval, from, to });
const iso = (range: [Date, Date]) => range.map((d) => d.toISOString());

describe('rolledRange: what the rollups answer of a chart', () => {
  it('whole hours inside from..to, and the whole days inside those', () => {
    const { hours, days } = rolledRange(question('2026-01-03T05:30:00Z', '2026-01-17T13:15:00Z'));
    expect(iso(hours)).toEqual(['2026-01-03T06:00:00.000Z', '2026-01-17T13:00:00.000Z']);
    expect(iso(days)).toEqual(['2026-01-04T00:00:00.000Z', '2026-01-17T00:00:00.000Z']);
  });

  it('no days for an hour chart, and nothing inside a range shorter than an hour', () => {
    expect(iso(rolledRange(question('2026-01-03T05:30:00Z', '2026-01-17T13:15:00Z', 'hour')).days)).toEqual([
      '2026-01-17T13:00:00.000Z',
      '2026-01-17T13:00:00.000Z',
    ]);
    const short = rolledRange(question('2026-01-05T10:10:00Z', '2026-01-05T10:50:00Z'));
    expect(iso(short.hours)).toEqual(['2026-01-05T10:10:00.000Z', '2026-01-05T10:10:00.000Z']);
  });

  it('counts and sums from the rollups, totals unless broken down', () => {
    const mark = { folded_to: '2026-02-01 00:00:00+00', expired_to: '2026-02-01 00:00:00+00' };
    expect(rollupChartStatement('ws_1', question('2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z'), mark).sql).toContain(
      'r.keyed = false',
    );
    const broken = parseChartInput({
      event: 'purchase',
      measure: 'sum_value',
      interval: 'week',
      breakdown: 'source',
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-31T00:00:00Z',
    });
    expect(rollupChartStatement('ws_1', broken, mark).sql).toContain('FROM event_touches k WHERE k.workspace_id = $1');
  });
});
