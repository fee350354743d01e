import { parseChartInput } from './chart-rule';
import { sketchesOf, wholeHours } from './chart-people.statement';
import { runsOf } from './people-rollup';

const question = (from: string, to: string, interval: string) =>
  parseChartInput({ event: 'purchase', measure: 'people', interval, from, to });
const day = (at: string) => Date.parse(`${at}T00:00:00Z`);
/** Every hour of a day, listed (as a delete of rows all day long lists them). */
const wholeDay = (at: string) => Array.from({ length: 24 }, (_, h) => day(at) + h * 3_600_000);

describe('which sketches answer a people chart', () => {
  it('whole hours: from rounded up, to rounded down (a row at exactly the hour after to is the next hour, read from events)', () => {
    const hours = (from: string, to: string) =>
      wholeHours(question(from, to, 'day')).map((d) => d.toISOString().slice(0, 13));
    expect(hours('2026-01-03T05:30:00Z', '2026-01-17T13:15:00Z')).toEqual(['2026-01-03T06', '2026-01-17T13']);
    expect(hours('2026-01-01T00:00:00Z', '2026-01-09T00:00:00Z')).toEqual(['2026-01-01T00', '2026-01-09T00']);
    expect(hours('2026-01-05T10:10:00Z', '2026-01-05T10:50:00Z')).toEqual(['2026-01-05T11', '2026-01-05T11']);
  });

  it('a day cut by the range reads the sketches of its whole hours; an hour chart reads hours', () => {
    const q = question('2026-01-03T21:30:00Z', '2026-01-05T02:15:00Z', 'day');
    const as = sketchesOf(q, wholeHours(q), new Set()).map((w) => `${w.grain} ${w.at.toISOString().slice(0, 13)}`);
    expect(as).toEqual([
      '1 2026-01-03T22',
      '1 2026-01-03T23',
      '24 2026-01-04T00',
      '1 2026-01-05T00',
      '1 2026-01-05T01',
    ]);
    const h = question('2026-01-03T21:30:00Z', '2026-01-04T00:15:00Z', 'hour');
    expect(
      sketchesOf(h, wholeHours(h), new Set(wholeDay('2026-01-04'))).map(
        (w) => `${w.grain} ${w.at.toISOString().slice(0, 13)}`,
      ),
    ).toEqual(['1 2026-01-03T22', '1 2026-01-03T23']);
  });

  it("a whole clean week reads its own sketch; a week cut by the range or with a listed day reads its clean days'", () => {
    const q = question('2026-01-01T00:00:00Z', '2026-01-31T23:59:59Z', 'week');
    const wanted = sketchesOf(q, wholeHours(q), new Set(wholeDay('2026-01-14')));
    const as = wanted.map((w) => `${w.grain} ${w.at.toISOString().slice(0, 10)}`);
    // Weeks start on Monday: Dec 29 (Jan 1-4 inside), Jan 5, Jan 12 (Jan 14 listed), Jan 19, Jan 26 (Jan 31 partial: its 23 whole hours).
    expect(as).toEqual([
      ...['01', '02', '03', '04'].map((d) => `24 2026-01-${d}`),
      '168 2026-01-05',
      ...['12', '13', '15', '16', '17', '18'].map((d) => `24 2026-01-${d}`),
      '168 2026-01-19',
      ...['26', '27', '28', '29', '30'].map((d) => `24 2026-01-${d}`),
      ...Array.from({ length: 23 }, () => '1 2026-01-31'),
    ]);
  });

  it('a whole month reads its month sketch; day charts read day sketches of the clean days only', () => {
    const q = question('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', 'month');
    expect(sketchesOf(q, wholeHours(q), new Set()).map((w) => `${w.grain} ${w.at.toISOString().slice(0, 10)}`)).toEqual(
      ['744 2026-01-01', '744 2026-02-01'],
    );
    const d = question('2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z', 'day');
    expect(
      sketchesOf(d, wholeHours(d), new Set(wholeDay('2026-01-02'))).map((w) => w.at.toISOString().slice(0, 10)),
    ).toEqual(['2026-01-01', '2026-01-03']);
  });

  it("a listed hour is read from events, its day's other hours from their sketches, the other days whole", () => {
    const d = question('2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z', 'day');
    const listed = new Set([day('2026-01-02') + 5 * 3_600_000]);
    const as = sketchesOf(d, wholeHours(d), listed).map((w) => `${w.grain} ${w.at.toISOString().slice(0, 13)}`);
    const hours = Array.from({ length: 24 }, (_, h) => h)
      .filter((h) => h !== 5)
      .map((h) => `1 2026-01-02T${String(h).padStart(2, '0')}`);
    expect(as).toEqual(['24 2026-01-01T00', ...hours, '24 2026-01-03T00']);
  });

  it('listed hours are read in runs of consecutive hours, one per workspace and type', () => {
    const at = (h: number) => new Date(day('2026-01-02') + h * 3_600_000);
    const hours = [3, 1, 2, 7]
      .map((h) => ({ workspace_id: 'w', type: 'purchase', hour: at(h) }))
      .concat([{ workspace_id: 'w', type: 'signup', hour: at(4) }]);
    const runs = runsOf(hours).map(
      (r) => `${r.type} ${new Date(r.from).toISOString().slice(11, 13)}-${new Date(r.to).toISOString().slice(11, 13)}`,
    );
    expect(runs).toEqual(['purchase 01-04', 'purchase 07-08', 'signup 04-05']);
  });
});
