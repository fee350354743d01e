import { Refusal } from '@app/platform/plain';
import { parseDefinition } from './definition';
import { inputsOf, mayMove, type PersonChange } from './inputs';

const inputs = (raw: unknown) => {
  const parsed = parseDefinition(raw);
  if (parsed instanceof Refusal) throw parsed;
  return inputsOf(parsed);
};
const change = (part: Partial<{ whole: boolean; columns: string[]; rows: string[] }>): PersonChange => ({
  whole: part.whole ?? false,
  columns: new Set(part.columns ?? []),
  rows: new Set(part.rows ?? []),
});

describe('what a segment reads, and whether a change can move someone', () => {
  const mixed = inputs({
    all: [{ stage: ['trial'] }, { not: { field: 'plan', equals: 'pro' } }, { field: 'email', exists: true }],
  });

  it('names the columns, events and lists a definition reads', () => {
    expect([...mixed.columns].sort()).toEqual(['email', 'fields', 'stage']);
    const counted = inputs({ any: [{ event: 'report_built', atLeast: 2 }, { list: 'news' }, { engaged: true }] });
    expect(counted).toEqual({ columns: new Set(['engaged_at']), events: new Set(['report_built']), lists: true });
  });

  it.each([
    ['a new or merged person', change({ whole: true }), true],
    ['a stage change', change({ columns: ['stage', 'stage_changed_at'] }), true],
    ['a field change', change({ columns: ['fields'] }), true],
    ['an unrelated column', change({ columns: ['purchases', 'os'] }), false],
    ['a pageview row', change({ rows: ['pageview'] }), false],
  ])('a stage-and-fields segment: %s moves someone: %s', (_name, c, moves) => {
    expect(mayMove(mixed, c)).toBe(moves);
  });

  it('an event segment moves on its own event, a list segment on a subscription row', () => {
    const events = inputs({ event: 'report_built', withinDays: 7 });
    expect(mayMove(events, change({ rows: ['report_built'] }))).toBe(true);
    expect(mayMove(events, change({ rows: ['pageview'], columns: ['first_touch'] }))).toBe(false);
    const list = inputs({ list: 'news' });
    expect(mayMove(list, change({ rows: ['unsubscribed'] }))).toBe(true);
    expect(mayMove(list, change({ rows: ['subscribed'] }))).toBe(true);
    expect(mayMove(list, change({ rows: ['signup'], columns: ['engaged_at'] }))).toBe(false);
  });
});
