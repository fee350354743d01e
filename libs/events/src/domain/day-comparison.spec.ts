import { todayAndYesterday } from './day-comparison';

describe('today against yesterday at the same time', () => {
  it('counts today from UTC midnight to now, and yesterday from its midnight to the same time of day', () => {
    const { today, yesterday } = todayAndYesterday(new Date('2026-12-03T15:20:05.000Z'));
    expect(today).toEqual({ from: new Date('2026-12-03T00:00:00.000Z'), to: new Date('2026-12-03T15:20:05.000Z') });
    expect(yesterday).toEqual({
      from: new Date('2026-12-02T00:00:00.000Z'),
      to: new Date('2026-12-02T15:20:05.000Z'),
    });
  });

  it('at midnight itself both spans are empty', () => {
    const { today, yesterday } = todayAndYesterday(new Date('2026-12-03T00:00:00.000Z'));
    expect(today.from).toEqual(today.to);
    expect(yesterday.from).toEqual(yesterday.to);
  });
});
