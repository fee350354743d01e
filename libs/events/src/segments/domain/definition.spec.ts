import { Refusal } from '@app/platform/plain';
import { definitionNames, parseDefinition, SEGMENT_LIMITS, windowsOf } from './definition';

const refusal = (raw: unknown) => {
  const parsed = parseDefinition(raw);
  if (!(parsed instanceof Refusal)) throw new Error(`expected a refusal for ${JSON.stringify(raw)}`);
  return { code: parsed.code, field: parsed.extra.field, message: parsed.message };
};

describe('a segment definition', () => {
  it.each([
    [{ stage: ['purchaser', 'repeat'] }, { kind: 'stage', stages: ['purchaser', 'repeat'] }],
    [{ stage: 'trial' }, { kind: 'stage', stages: ['trial'] }],
    [{ list: 'news' }, { kind: 'list', list: 'news' }],
    [
      { field: 'plan', equals: 'pro' },
      { kind: 'field', field: 'plan', test: { equals: 'pro' } },
    ],
    [
      { field: 'plan', exists: false },
      { kind: 'field', field: 'plan', test: { exists: false } },
    ],
    [
      { field: 'plan', in: ['pro', 3] },
      { kind: 'field', field: 'plan', test: { in: ['pro', 3] } },
    ],
    [
      { field: 'seats', gt: 5 },
      { kind: 'field', field: 'seats', test: { gt: 5 } },
    ],
    [
      { event: 'report_built', atLeast: 3, withinDays: 7 },
      { kind: 'event', event: 'report_built', atLeast: 3, never: false, withinDays: 7 },
    ],
    [
      { event: 'signup', never: true },
      { kind: 'event', event: 'signup', atLeast: 1, never: true, withinDays: null },
    ],
    [{ engaged: true }, { kind: 'engaged', engaged: true }],
    [
      { firstTouch: 'source', equals: 'newsletter' },
      { kind: 'firstTouch', part: 'source', equals: 'newsletter' },
    ],
    [{ not: { engaged: true } }, { kind: 'not', of: { kind: 'engaged', engaged: true } }],
  ])('reads %j', (raw, parsed) => {
    expect(parseDefinition(raw)).toEqual(parsed);
  });

  it('joins conditions with all and any, at any depth', () => {
    const parsed = parseDefinition({
      all: [{ stage: ['trial'] }, { any: [{ list: 'a' }, { not: { engaged: true } }] }],
    });
    expect(parsed).toMatchObject({ kind: 'all', of: [{ kind: 'stage' }, { kind: 'any', of: [{}, { kind: 'not' }] }] });
  });

  it.each([
    [null, 'definition'],
    [[], 'definition'],
    [{}, 'definition'],
    [{ stage: ['trial'], list: 'a' }, 'definition'],
    [{ stage: ['nobody'] }, 'definition.stage'],
    [{ stage: [] }, 'definition.stage'],
    [{ list: '' }, 'definition.list'],
    [{ field: 'plan' }, 'definition'],
    [{ field: 'plan', equals: 'a', exists: true }, 'definition'],
    [{ field: 'a b', equals: 'x' }, 'definition.field'],
    [{ field: 'plan', equals: { nested: 1 } }, 'definition.equals'],
    [{ field: 'seats', gt: '5' }, 'definition.gt'],
    [{ field: 'plan', in: [] }, 'definition.in'],
    [{ event: 'x', atLeast: 0 }, 'definition.atLeast'],
    [{ event: 'x', atLeast: 2.5 }, 'definition.atLeast'],
    [{ event: 'x', withinDays: 366 }, 'definition.withinDays'],
    [{ event: 'x', never: false }, 'definition.never'],
    [{ event: 'x', never: true, atLeast: 2 }, 'definition.atLeast'],
    [{ engaged: 'yes' }, 'definition.engaged'],
    [{ firstTouch: 'term', equals: 'x' }, 'definition.firstTouch'],
    [{ stage: ['trial'], color: 'red' }, 'definition.color'],
    [{ all: [] }, 'definition.all'],
    [{ all: [{ stage: ['trial'] }, { event: 'x', atLeast: -1 }] }, 'definition.all[1].atLeast'],
    [{ any: [{ not: { list: 5 } }] }, 'definition.any[0].not.list'],
  ])('refuses %j, naming %s', (raw, field) => {
    const answer = refusal(raw);
    expect(answer).toMatchObject({ code: 'invalid_field', field });
    expect(answer.message).toMatch(/\.$/);
  });

  it('refuses a definition of too many conditions or too deep', () => {
    const many = { any: Array.from({ length: SEGMENT_LIMITS.conditions }, () => ({ engaged: true })) };
    expect(refusal(many).message).toContain(`at most ${SEGMENT_LIMITS.conditions} conditions`);
    let deep: unknown = { engaged: true };
    for (let i = 0; i < SEGMENT_LIMITS.depth; i++) deep = { not: deep };
    expect(refusal(deep).message).toContain('nest at most');
  });

  it('names its events, lists and windows', () => {
    const parsed = parseDefinition({
      all: [
        { event: 'report_built', atLeast: 3, withinDays: 7 },
        { not: { event: 'report_built', withinDays: 7 } },
        { event: 'signup' },
        { any: [{ list: 'news' }, { list: 'news' }] },
      ],
    });
    if (parsed instanceof Refusal) throw parsed;
    expect(definitionNames(parsed)).toEqual({ events: ['report_built', 'signup'], lists: ['news'] });
    expect(windowsOf(parsed)).toEqual([{ event: 'report_built', days: 7 }]);
  });
});
