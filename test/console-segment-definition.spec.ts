// The Segments form's rows and the definition's JSON (docs/graphql.md#segments): each row reads back as
// the condition it wrote, and a definition the form cannot show says which condition and why.
import {
  conditionOf,
  definitionOf,
  draftOf,
  newRow,
  Row,
  rowNamed,
  valueOf,
  valueText,
} from '../apps/console/src/pages/segments/definition';

const row = (changes: Partial<Row>): Row => ({ ...newRow(changes.kind), ...changes });

describe("a segment's definition in the form", () => {
  it.each<[Partial<Row>, unknown]>([
    [{ kind: 'stage', stages: ['purchaser'] }, { stage: 'purchaser' }],
    [{ kind: 'stage', stages: ['purchaser', 'repeat'] }, { stage: ['purchaser', 'repeat'] }],
    [{ kind: 'list', name: 'news' }, { list: 'news' }],
    [
      { kind: 'field', name: 'plan', value: 'pro' },
      { field: 'plan', equals: 'pro' },
    ],
    [
      { kind: 'field', name: 'seats', test: 'gt', value: '5' },
      { field: 'seats', gt: 5 },
    ],
    [
      { kind: 'field', name: 'plan', test: 'in', value: 'pro, team' },
      { field: 'plan', in: ['pro', 'team'] },
    ],
    [
      { kind: 'field', name: 'plan', test: 'missing' },
      { field: 'plan', exists: false },
    ],
    [
      { kind: 'event', name: 'report_built', atLeast: '3', withinDays: '7' },
      { event: 'report_built', atLeast: 3, withinDays: 7 },
    ],
    [
      { kind: 'event', name: 'x', test: 'never' },
      { event: 'x', never: true },
    ],
    [{ kind: 'engaged', test: 'false' }, { engaged: false }],
    [
      { kind: 'firstTouch', test: 'medium', value: 'newsletter' },
      { firstTouch: 'medium', equals: 'newsletter' },
    ],
    [{ kind: 'list', name: 'news', not: true }, { not: { list: 'news' } }],
  ])('the row %j is the condition %j, and the condition reads back as the same row', (changes, condition) => {
    expect(conditionOf(row(changes))).toEqual(condition);
    const draft = draftOf({ any: [condition] });
    expect(draft).toEqual({ combine: 'any', rows: [expect.objectContaining(changes)] });
    expect(definitionOf(draft as Exclude<typeof draft, string>)).toEqual({ any: [condition] });
  });

  it('combines the rows by all or any', () => {
    const rows = [row({ kind: 'engaged' }), row({ kind: 'list', name: 'news' })];
    expect(definitionOf({ combine: 'all', rows })).toEqual({ all: [{ engaged: true }, { list: 'news' }] });
  });

  it('reads a bare condition as all of one row', () => {
    expect(draftOf({ engaged: true })).toEqual({ combine: 'all', rows: [row({ kind: 'engaged', test: 'true' })] });
  });

  it.each([
    [{ all: [{ engaged: true }, { any: [{ list: 'a' }] }] }, /condition 2 .* nested/],
    [{ all: [{ not: { all: [] } }] }, /condition 1/],
    [{ all: [{ list: 'a', extra: 1 }] }, /condition 1/],
    [{ all: { list: 'a' } }, /"all" takes a list/],
    [[1], /a JSON object/],
  ])('says why the form cannot show %j', (definition, why) => {
    expect(draftOf(definition)).toMatch(why);
  });

  it('keeps a field value typed: numbers and true/false as such, a quoted string as text', () => {
    expect([valueOf('5'), valueOf('true'), valueOf('"5"'), valueOf(' pro ')]).toEqual([5, true, '5', 'pro']);
    for (const value of ['pro', '5', 5, true, 'true', ' spaced ']) expect(valueOf(valueText(value))).toEqual(value);
  });

  it("names the row a refusal's JSON path points at", () => {
    expect(rowNamed('definition.all[2].atLeast')).toBe(2);
    expect(rowNamed('definition.any[0]')).toBe(0);
    expect([rowNamed('definition'), rowNamed('name'), rowNamed(undefined)]).toEqual([null, null, null]);
  });
});
