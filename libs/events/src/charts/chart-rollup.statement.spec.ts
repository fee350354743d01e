import { parseChartInput } from './chart-rule';
import { rolledRange, rollupsAnswer } from './chart-rollup.statement';
import { edgePlan, peopleEdges } from './chart-rollup-people.statement';

const question = (input: Record<string, string>) =>
  parseChartInput({ event: 'purchase', measure: 'count', interval: 'day', from: '2026-01-01T00:00:00Z', to: '2026-01-03T23:59:59Z', ...input } as never);
const iso = (range: ReturnType<typeof rolledRange>) => [...range.hours, ...range.days].map((d) => d.toISOString().slice(0, 16));

describe('the rollups a count or sum reads: whole hours inside from..to, whole days among them', () => {
  it('aligned from, to a second before midnight: the last hour is read from events', () => {
    expect(iso(rolledRange(question({})))).toEqual(['2026-01-01T00:00', '2026-01-03T23:00', '2026-01-01T00:00', '2026-01-03T00:00']);
  });

  it('from and to mid-hour: the whole hours between, and the whole days among them', () => {
    expect(iso(rolledRange(question({ from: '2026-01-01T10:30:00Z', to: '2026-01-03T05:15:00Z' })))).toEqual([
      '2026-01-01T11:00',
      '2026-01-03T05:00',
      '2026-01-02T00:00',
      '2026-01-03T00:00',
    ]);
  });

  it('from and to in one hour: no rollup, every row from events', () => {
    expect(iso(rolledRange(question({ from: '2026-01-01T10:10:00Z', to: '2026-01-01T10:50:00Z' })))).toEqual(Array(4).fill('2026-01-01T10:10'));
  });

  it('hour charts read hours only', () => {
    const { days } = rolledRange(question({ interval: 'hour' }));
    expect(days[0]).toEqual(days[1]);
  });

  it('people per hour are not kept: the events answer them', () => {
    expect(rollupsAnswer(question({ measure: 'people', interval: 'hour' }))).toBe(false);
    expect(rollupsAnswer(question({ measure: 'people', interval: 'day' }))).toBe(true);
    expect(rollupsAnswer(question({ measure: 'count', interval: 'hour' }))).toBe(true);
  });
});

describe("a people chart's edge buckets: those reaching outside from..to, each read the cheapest way", () => {
  const people = (input: Record<string, string>) => question({ measure: 'people', ...input });
  const edges = (input: Record<string, string>) => peopleEdges(people(input)).map((e) => [e.bucket, e.lo, e.end].map((d) => d.toISOString().slice(0, 13)));

  it('from mid-day and to a second before midnight: the first bucket and the last', () => {
    expect(edges({ from: '2026-01-01T10:30:00Z' })).toEqual([
      ['2026-01-01T00', '2026-01-01T10', '2026-01-02T00'],
      ['2026-01-03T00', '2026-01-03T00', '2026-01-04T00'],
    ]);
  });

  it('from and to on whole buckets: no edge', () => {
    expect(edges({ to: '2026-01-03T23:59:59.999Z' })).toEqual([]);
  });

  it('one bucket reaching out on both sides is one edge', () => {
    expect(edges({ interval: 'month', from: '2026-01-05T00:00:00Z', to: '2026-01-20T00:00:00Z' })).toEqual([['2026-01-01T00', '2026-01-05T00', '2026-02-01T00']]);
  });

  it('few rows outside: adjusted; few rows inside: read; fewer people than rows either side: probed', () => {
    expect(edgePlan({ inside: 100_000, outside: 10, people: 20_000 })).toBe('adjust');
    expect(edgePlan({ inside: 50_000, outside: 50_000, people: 20_000 })).toBe('rows');
    expect(edgePlan({ inside: 1_700_000, outside: 1_700_000, people: 20_000 })).toBe('people');
  });
});
