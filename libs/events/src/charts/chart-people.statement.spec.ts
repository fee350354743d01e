import { parseChartInput } from './chart-rule';
import { sketchesOf, wholeDays } from './chart-people.statement';

const question = (from: string, to: string, interval: string) => parseChartInput({ event: 'purchase', measure: 'people', interval, from, to });
const iso = (dates: Date[]) => dates.map((d) => d.toISOString().slice(0, 10));
const day = (at: string) => Date.parse(`${at}T00:00:00Z`);

describe('which sketches answer a people chart', () => {
  it('whole days: from rounded up, to rounded down (a row at exactly midnight after to is the next day, read from events)', () => {
    expect(iso(wholeDays(question('2026-01-03T05:30:00Z', '2026-01-17T13:15:00Z', 'day')))).toEqual(['2026-01-04', '2026-01-17']);
    expect(iso(wholeDays(question('2026-01-01T00:00:00Z', '2026-01-09T00:00:00Z', 'day')))).toEqual(['2026-01-01', '2026-01-09']);
    expect(iso(wholeDays(question('2026-01-05T10:10:00Z', '2026-01-06T03:20:00Z', 'day')))).toEqual(['2026-01-06', '2026-01-06']);
  });

  it("a whole clean week reads its own sketch; a week cut by the range or with a listed day reads its clean days'", () => {
    const q = question('2026-01-01T00:00:00Z', '2026-01-31T23:59:59Z', 'week');
    const wanted = sketchesOf(q, wholeDays(q), new Set([day('2026-01-14')]));
    const as = wanted.map((w) => `${w.grain} ${w.at.toISOString().slice(0, 10)}`);
    // Weeks start on Monday: Dec 29 (Jan 1-4 inside), Jan 5, Jan 12 (Jan 14 listed), Jan 19, Jan 26 (Jan 31 partial).
    expect(as).toEqual([
      ...['01', '02', '03', '04'].map((d) => `24 2026-01-${d}`),
      '168 2026-01-05',
      ...['12', '13', '15', '16', '17', '18'].map((d) => `24 2026-01-${d}`),
      '168 2026-01-19',
      ...['26', '27', '28', '29', '30'].map((d) => `24 2026-01-${d}`),
    ]);
  });

  it('a whole month reads its month sketch; day charts read day sketches of the clean days only', () => {
    const q = question('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', 'month');
    expect(sketchesOf(q, wholeDays(q), new Set()).map((w) => `${w.grain} ${w.at.toISOString().slice(0, 10)}`)).toEqual(['744 2026-01-01', '744 2026-02-01']);
    const d = question('2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z', 'day');
    expect(sketchesOf(d, wholeDays(d), new Set([day('2026-01-02')])).map((w) => w.at.toISOString().slice(0, 10))).toEqual(['2026-01-01', '2026-01-03']);
  });
});
