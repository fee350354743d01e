import { parseRetentionInput, retentionCohorts } from './retention-rule';

const now = new Date('2026-12-03T15:00:00Z'); // a Thursday
const base = { start: 'signup', back: 'pageview' };
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('retention periods are the last ones up to now, as chart buckets', () => {
  it('8 weeks from Monday by default', () => {
    const question = parseRetentionInput(base, now);
    expect(question.interval).toBe('week');
    expect(question.periods).toHaveLength(8);
    expect(question.periods[0].toISOString()).toBe('2026-10-12T00:00:00.000Z');
    expect(question.periods[7].toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(question.end.toISOString()).toBe('2026-12-07T00:00:00.000Z');
  });

  it('days and months in UTC', () => {
    expect(iso(parseRetentionInput({ ...base, interval: 'day', periods: 2 }, now).periods)).toEqual([
      '2026-12-02T00:00:00.000Z',
      '2026-12-03T00:00:00.000Z',
    ]);
    const months = parseRetentionInput({ ...base, interval: 'month', periods: 13 }, now);
    expect(months.periods[0].toISOString()).toBe('2025-12-01T00:00:00.000Z');
    expect(months.end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(parseRetentionInput({ ...base, periods: 52 }, now).periods).toHaveLength(52);
  });

  it.each([
    [{ interval: 'hour' }, 'invalid_field', 'interval'],
    [{ periods: 0 }, 'invalid_field', 'periods'],
    [{ periods: 53 }, 'invalid_field', 'periods'],
    [{ start: 'Nope!' }, 'unknown_event', 'start'],
    [{ back: 'note' }, 'unknown_event', 'back'],
  ])('%j is refused with %s naming %s', (input, code, field) => {
    expect(() => parseRetentionInput({ ...base, ...input }, now)).toThrow(
      expect.objectContaining({ code, extra: { field } }),
    );
  });
});

describe('retention cohorts', () => {
  it('shares run from the cohort’s own period (1) to now; a cohort of nobody answers 0s', () => {
    const question = parseRetentionInput({ ...base, interval: 'day', periods: 3 }, now);
    const [d1, d2] = question.periods;
    const cohorts = retentionCohorts(
      question,
      [{ cohort: d1, people: 4 }],
      [
        { cohort: d1, at: d2, people: 2 },
        { cohort: d1, at: question.periods[2], people: 1 },
      ],
    );
    expect(cohorts.map((c) => [c.start.toISOString(), c.people, c.shares])).toEqual([
      ['2026-12-01T00:00:00.000Z', 4, [1, 0.5, 0.25]],
      ['2026-12-02T00:00:00.000Z', 0, [0, 0]],
      ['2026-12-03T00:00:00.000Z', 0, [0]],
    ]);
  });
});
