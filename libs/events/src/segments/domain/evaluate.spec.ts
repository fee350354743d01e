import { Refusal } from '@app/platform/plain';
import { parseDefinition } from './definition';
import { evaluate, factsOf } from './evaluate';

const NOW = new Date('2026-06-10T12:00:00Z');
const days = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();
const is = (raw: unknown, facts: ReturnType<typeof factsOf>) => {
  const parsed = parseDefinition(raw);
  if (parsed instanceof Refusal) throw parsed;
  return evaluate(parsed, facts, NOW);
};

describe('a definition answered for a person the post made', () => {
  const person = factsOf(
    {
      stage: 'trial',
      email: 'ada@example.com',
      name: null,
      fields: { plan: 'pro', seats: 5, flag: null },
      engaged_at: NOW.toISOString(),
      first_touch: { source: 'newsletter', medium: null },
    },
    [
      { type: 'report_built', occurred_at: days(1) },
      { type: 'report_built', occurred_at: days(3) },
      { type: 'report_built', occurred_at: days(9) },
      { type: 'subscribed', occurred_at: days(0), properties: { list: { address: 'news', name: 'News' } } },
      { type: 'subscribed', occurred_at: days(0), properties: { list: { address: 'tips', name: 'Tips' } } },
      { type: 'unsubscribed', occurred_at: days(0), properties: { list: { address: 'tips', name: 'Tips' }, via: 'x' } },
    ],
  );

  it.each([
    [{ stage: ['trial', 'purchaser'] }, true],
    [{ stage: 'purchaser' }, false],
    [{ list: 'news' }, true],
    [{ list: 'tips' }, false],
    [{ field: 'plan', equals: 'pro' }, true],
    [{ field: 'seats', equals: '5' }, false],
    [{ field: 'seats', gt: 4 }, true],
    [{ field: 'plan', lt: 4 }, false],
    [{ field: 'plan', in: ['team', 'pro'] }, true],
    [{ field: 'flag', exists: true }, false],
    [{ field: 'missing', exists: false }, true],
    [{ field: 'email', equals: 'ada@example.com' }, true],
    [{ field: 'name', exists: true }, false],
    [{ event: 'report_built', atLeast: 2, withinDays: 7 }, true],
    [{ event: 'report_built', atLeast: 3, withinDays: 7 }, false],
    [{ event: 'report_built', atLeast: 3 }, true],
    [{ event: 'signup', never: true }, true],
    [{ event: 'report_built', never: true, withinDays: 1 }, true],
    [{ engaged: true }, true],
    [{ firstTouch: 'source', equals: 'newsletter' }, true],
    [{ firstTouch: 'medium', equals: 'email' }, false],
    [{ not: { all: [{ engaged: true }, { list: 'news' }] } }, false],
    [{ any: [{ list: 'tips' }, { stage: 'trial' }] }, true],
  ])('%j is %s', (raw, expected) => {
    expect(is(raw, person)).toBe(expected);
  });
});
