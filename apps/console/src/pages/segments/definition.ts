// A segment's definition (docs/graphql.md#segments) as the console's form holds it: a row per condition
// (stage, list, field, event, engaged, first touch), each one negatable, combined by all or any. The JSON
// is what is sent; the form reads a definition of one level (a bare condition, or all/any of conditions,
// each optionally under not) and says why it cannot read any other, which then is edited as JSON.

export type Kind = 'stage' | 'list' | 'field' | 'event' | 'engaged' | 'firstTouch';
export type Combine = 'all' | 'any';

export const KINDS: [Kind, string][] = [
  ['stage', 'Stage'],
  ['list', 'Subscribed to list'],
  ['field', 'Field'],
  ['event', 'Event'],
  ['engaged', 'Engaged'],
  ['firstTouch', 'First touch'],
];
export const FIELD_TESTS: [string, string][] = [
  ['equals', 'equals'],
  ['in', 'is one of'],
  ['gt', 'is greater than'],
  ['lt', 'is less than'],
  ['exists', 'is set'],
  ['missing', 'is not set'],
];
export const TOUCHES: [string, string][] = [
  ['source', 'source'],
  ['medium', 'medium'],
  ['campaign', 'campaign'],
];

/** One condition as the form's controls hold it: text as typed, read into JSON by conditionOf. */
export interface Row {
  kind: Kind;
  not: boolean;
  stages: string[];
  /** The list's address, the field's name or the event's name. */
  name: string;
  /** field: a FIELD_TESTS value; event: 'atLeast' or 'never'; engaged: 'true' or 'false';
   * firstTouch: a TOUCHES value. */
  test: string;
  /** field: the value (values, comma-separated, for in); firstTouch: the value it equals. */
  value: string;
  atLeast: string;
  withinDays: string;
}

export interface Draft {
  combine: Combine;
  rows: Row[];
}

const TESTS: Record<Kind, string> = {
  stage: '',
  list: '',
  field: 'equals',
  event: 'atLeast',
  engaged: 'true',
  firstTouch: 'source',
};

export function newRow(kind: Kind = 'stage'): Row {
  return { kind, not: false, stages: [], name: '', test: TESTS[kind], value: '', atLeast: '', withinDays: '' };
}

type Json = Record<string, unknown>;

/** A field's value as typed: a number, true, false or a quoted JSON string as such, any other text as text. */
export function valueOf(text: string): unknown {
  const trimmed = text.trim();
  if (/^(-?\d+(\.\d+)?|true|false|"([^"\\]|\\.)*")$/.test(trimmed)) return JSON.parse(trimmed);
  return trimmed;
}

/** The text valueOf reads back as the same value (a string that would read as another type is quoted). */
export function valueText(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return typeof valueOf(value) === 'string' && valueOf(value) === value ? value : JSON.stringify(value);
}

const whole = (text: string): number | string => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());

function fieldCondition(row: Row): Json {
  if (row.test === 'exists' || row.test === 'missing') return { field: row.name, exists: row.test === 'exists' };
  if (row.test === 'in') return { field: row.name, in: row.value.split(',').map(valueOf) };
  return { field: row.name, [row.test]: valueOf(row.value) };
}

function eventCondition(row: Row): Json {
  const days = row.withinDays.trim() ? { withinDays: whole(row.withinDays) } : {};
  if (row.test === 'never') return { event: row.name, never: true, ...days };
  return { event: row.name, ...(row.atLeast.trim() ? { atLeast: whole(row.atLeast) } : {}), ...days };
}

/** One row as its condition, under not when negated. */
export function conditionOf(row: Row): Json {
  const condition: Json =
    row.kind === 'stage'
      ? { stage: row.stages.length === 1 ? row.stages[0] : row.stages }
      : row.kind === 'list'
        ? { list: row.name }
        : row.kind === 'field'
          ? fieldCondition(row)
          : row.kind === 'event'
            ? eventCondition(row)
            : row.kind === 'engaged'
              ? { engaged: row.test === 'true' }
              : { firstTouch: row.test, equals: row.value };
  return row.not ? { not: condition } : condition;
}

export function definitionOf(draft: Draft): Json {
  return { [draft.combine]: draft.rows.map(conditionOf) };
}

const keysAre = (json: Json, allowed: string[], required: string[]) =>
  Object.keys(json).every((k) => allowed.includes(k)) && required.every((k) => k in json);

const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value === undefined ? '' : null;

function fieldRow(json: Json, row: Row): Row | null {
  const tests = Object.keys(json).filter((k) => k !== 'field');
  if (tests.length !== 1 || typeof json.field !== 'string') return null;
  const [test] = tests;
  const base = { ...row, kind: 'field' as const, name: json.field };
  if (test === 'exists' && typeof json.exists === 'boolean')
    return { ...base, test: json.exists ? 'exists' : 'missing' };
  if (test === 'in' && Array.isArray(json.in)) {
    const values = json.in.map(valueText);
    return values.some((v) => v.includes(',')) ? null : { ...base, test, value: values.join(', ') };
  }
  if (test === 'equals' || test === 'gt' || test === 'lt') return { ...base, test, value: valueText(json[test]) };
  return null;
}

function eventRow(json: Json, row: Row): Row | null {
  if (!keysAre(json, ['event', 'atLeast', 'withinDays', 'never'], ['event']) || typeof json.event !== 'string')
    return null;
  const [atLeast, withinDays] = [text(json.atLeast), text(json.withinDays)];
  if (atLeast === null || withinDays === null || (json.never !== undefined && json.never !== true)) return null;
  if (json.never && json.atLeast !== undefined) return null;
  return { ...row, kind: 'event', name: json.event, test: json.never ? 'never' : 'atLeast', atLeast, withinDays };
}

function plainRow(json: Json, row: Row): Row | null {
  if ('stage' in json && keysAre(json, ['stage'], [])) {
    const stages = typeof json.stage === 'string' ? [json.stage] : json.stage;
    const ok = Array.isArray(stages) && stages.every((s) => typeof s === 'string');
    return ok ? { ...row, kind: 'stage', stages: stages as string[] } : null;
  }
  if ('list' in json && keysAre(json, ['list'], []) && typeof json.list === 'string')
    return { ...row, kind: 'list', name: json.list };
  if ('engaged' in json && keysAre(json, ['engaged'], []) && typeof json.engaged === 'boolean')
    return { ...row, kind: 'engaged', test: String(json.engaged) };
  const touch = json.firstTouch;
  if (keysAre(json, ['firstTouch', 'equals'], ['firstTouch', 'equals']) && typeof json.equals === 'string')
    return TOUCHES.some(([t]) => t === touch)
      ? { ...row, kind: 'firstTouch', test: String(touch), value: json.equals }
      : null;
  return null;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A condition as a row, or null when the form has no controls for it (nesting, unknown keys or types). */
function rowOf(value: unknown): Row | null {
  if (!isObject(value)) return null;
  const negated = 'not' in value && keysAre(value, ['not'], []);
  const json = negated ? value.not : value;
  if (!isObject(json)) return null;
  const row = { ...newRow(), not: negated };
  if ('field' in json) return fieldRow(json, row);
  if ('event' in json) return eventRow(json, row);
  return plainRow(json, row);
}

/** A definition as the form's draft, or the sentence saying why the form cannot show it. */
export function draftOf(definition: unknown): Draft | string {
  if (!isObject(definition)) return 'A definition is a JSON object, like {"all": [{"engaged": true}]}.';
  const combine = (['all', 'any'] as const).find((c) => c in definition && Object.keys(definition).length === 1);
  const conditions = combine ? definition[combine] : [definition];
  if (!Array.isArray(conditions)) return `"${combine}" takes a list of conditions: [ ... ].`;
  const rows = conditions.map(rowOf);
  const unread = rows.findIndex((row) => row === null);
  if (unread === -1) return { combine: combine ?? 'all', rows: rows as Row[] };
  return (
    `The form shows one level of conditions; condition ${unread + 1} (${JSON.stringify(conditions[unread])}) ` +
    'is nested or has keys the form has no control for: edit it in the JSON.'
  );
}

/** The row a refusal's JSON path names (definition.all[2].atLeast is row 2), if any. */
export function rowNamed(path: string | null | undefined): number | null {
  const match = /^definition\.(?:all|any)\[(\d+)\]/.exec(path ?? '');
  return match ? Number(match[1]) : null;
}
