import { isHistory } from './history';

const arrived = new Date('2026-12-03T12:00:00.000Z');
const hoursBefore = (hours: number, ms = 0) => new Date(arrived.getTime() - hours * 3_600_000 - ms);

describe('an event is history when it happened more than the window before it arrived, or came through an import', () => {
  it('an event within the window is not history, up to the window exactly', () => {
    expect(isHistory({ occurredAt: arrived }, arrived, 24)).toBe(false);
    expect(isHistory({ occurredAt: hoursBefore(23) }, arrived, 24)).toBe(false);
    expect(isHistory({ occurredAt: hoursBefore(24) }, arrived, 24)).toBe(false);
  });

  it('an event a millisecond past the window is history', () => {
    expect(isHistory({ occurredAt: hoursBefore(24, 1) }, arrived, 24)).toBe(true);
    expect(isHistory({ occurredAt: hoursBefore(24 * 90) }, arrived, 24)).toBe(true);
  });

  it("the window is the workspace's: an hour, or a year", () => {
    expect(isHistory({ occurredAt: hoursBefore(2) }, arrived, 1)).toBe(true);
    expect(isHistory({ occurredAt: hoursBefore(24 * 300) }, arrived, 24 * 365)).toBe(false);
  });

  it('an event dated after its arrival (a client clock ahead) is not history', () => {
    expect(isHistory({ occurredAt: hoursBefore(-48) }, arrived, 24)).toBe(false);
  });

  it('an imported event is history whenever it happened, even now', () => {
    expect(isHistory({ occurredAt: arrived, imported: true }, arrived, 24)).toBe(true);
    expect(isHistory({ occurredAt: hoursBefore(-1), imported: true }, arrived, 24 * 365)).toBe(true);
  });
});
