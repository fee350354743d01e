// docs/graphql.md#segments: a live segment's definition, a small JSON grammar of conditions on a person
// (stage, list, field, event counts in a window, engaged, first touch) joined by all, any and not. This
// file reads and checks its shape, naming the bad part by its path; whether a custom event name was seen
// and whether a list exists are the service's checks (they read the workspace).
import { Refusal } from '@app/platform/plain';
import { isStage, STAGES, type Stage } from '@app/people';

export type FieldValue = string | number | boolean;
export const FIRST_TOUCH_PARTS = ['source', 'medium', 'campaign'] as const;
export type FirstTouchPart = (typeof FIRST_TOUCH_PARTS)[number];

export type FieldTest =
  { equals: FieldValue } | { exists: boolean } | { in: FieldValue[] } | { gt: number } | { lt: number };

/** A parsed condition: one kind per object, as the grammar writes them. */
export type SegmentCondition =
  | { kind: 'stage'; stages: Stage[] }
  | { kind: 'list'; list: string }
  | { kind: 'field'; field: string; test: FieldTest }
  | { kind: 'event'; event: string; atLeast: number; never: boolean; withinDays: number | null }
  | { kind: 'engaged'; engaged: boolean }
  | { kind: 'firstTouch'; part: FirstTouchPart; equals: string }
  | { kind: 'all' | 'any'; of: SegmentCondition[] }
  | { kind: 'not'; of: SegmentCondition };

export const SEGMENT_LIMITS = {
  conditions: 30,
  depth: 6,
  withinDays: 365,
  atLeast: 1000,
  choices: 50,
  text: 200,
} as const;

const KEYS: Record<string, readonly string[]> = {
  stage: ['stage'],
  list: ['list'],
  field: ['field', 'equals', 'exists', 'in', 'gt', 'lt'],
  event: ['event', 'atLeast', 'withinDays', 'never'],
  engaged: ['engaged'],
  firstTouch: ['firstTouch', 'equals'],
  all: ['all'],
  any: ['any'],
  not: ['not'],
};
const KINDS = Object.keys(KEYS);
const FIELD_TESTS = ['equals', 'exists', 'in', 'gt', 'lt'] as const;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

class Bad extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isValue = (v: unknown): v is FieldValue =>
  (typeof v === 'string' && v.length <= SEGMENT_LIMITS.text) ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  typeof v === 'boolean';

function wholeNumber(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new Bad(path, `Set ${path} to a whole number from ${min} to ${max}.`);
  return v;
}

function text(v: unknown, path: string, what: string): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > SEGMENT_LIMITS.text)
    throw new Bad(path, `Set ${path} to ${what} (1 to ${SEGMENT_LIMITS.text} characters).`);
  return v.trim();
}

class Reader {
  private count = 0;

  condition(raw: unknown, path: string, depth: number): SegmentCondition {
    if (++this.count > SEGMENT_LIMITS.conditions)
      throw new Bad(path, `A definition holds at most ${SEGMENT_LIMITS.conditions} conditions: join fewer.`);
    if (depth > SEGMENT_LIMITS.depth)
      throw new Bad(path, `Conditions nest at most ${SEGMENT_LIMITS.depth} deep: flatten ${path}.`);
    if (!isObject(raw))
      throw new Bad(path, `Make ${path} an object with one of ${KINDS.join(', ')}, such as {"stage": ["trial"]}.`);
    const kinds = Object.keys(raw).filter((k) => KINDS.includes(k));
    if (kinds.length !== 1)
      throw new Bad(path, `Give ${path} exactly one of ${KINDS.join(', ')}; use "all" to join conditions.`);
    const kind = kinds[0];
    const stray = Object.keys(raw).find((k) => !KEYS[kind].includes(k));
    if (stray) throw new Bad(`${path}.${stray}`, `A ${kind} condition takes no "${stray}": remove ${path}.${stray}.`);
    return this.read(kind, raw, path, depth);
  }

  private read(kind: string, raw: Record<string, unknown>, path: string, depth: number): SegmentCondition {
    switch (kind) {
      case 'stage':
        return { kind, stages: stages(raw.stage, `${path}.stage`) };
      case 'list':
        return { kind, list: text(raw.list, `${path}.list`, "a list's address") };
      case 'field':
        return fieldCondition(raw, path);
      case 'event':
        return eventCondition(raw, path);
      case 'engaged':
        if (typeof raw.engaged !== 'boolean') throw new Bad(`${path}.engaged`, `Set ${path}.engaged to true or false.`);
        return { kind, engaged: raw.engaged };
      case 'firstTouch':
        return firstTouchCondition(raw, path);
      case 'not':
        return { kind, of: this.condition(raw.not, `${path}.not`, depth + 1) };
      default: {
        const list = raw[kind];
        if (!Array.isArray(list) || list.length === 0)
          throw new Bad(`${path}.${kind}`, `Set ${path}.${kind} to a list of one or more conditions.`);
        const of = list.map((c, i) => this.condition(c, `${path}.${kind}[${i}]`, depth + 1));
        return { kind: kind as 'all' | 'any', of };
      }
    }
  }
}

function stages(raw: unknown, path: string): Stage[] {
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.length === 0 || !list.every(isStage))
    throw new Bad(path, `Set ${path} to one or more of ${STAGES.join(', ')}.`);
  return [...new Set(list as Stage[])];
}

function fieldCondition(raw: Record<string, unknown>, path: string): SegmentCondition {
  const field = raw.field;
  if (typeof field !== 'string' || !FIELD_NAME.test(field))
    throw new Bad(`${path}.field`, `Set ${path}.field to a field's name (letters, digits, _ . -; at most 64).`);
  const tests = FIELD_TESTS.filter((t) => raw[t] !== undefined);
  if (tests.length !== 1)
    throw new Bad(path, `Give ${path} exactly one of ${FIELD_TESTS.join(', ')}, such as "equals": "pro".`);
  const [t] = tests;
  const at = `${path}.${t}`;
  const value = raw[t];
  if (t === 'equals') {
    if (!isValue(value)) throw new Bad(at, `Set ${at} to a string, a number or true or false.`);
    return { kind: 'field', field, test: { equals: value } };
  }
  if (t === 'exists') {
    if (typeof value !== 'boolean') throw new Bad(at, `Set ${at} to true or false.`);
    return { kind: 'field', field, test: { exists: value } };
  }
  if (t === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > SEGMENT_LIMITS.choices || !value.every(isValue))
      throw new Bad(at, `Set ${at} to a list of 1 to ${SEGMENT_LIMITS.choices} strings, numbers or booleans.`);
    return { kind: 'field', field, test: { in: value } };
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Bad(at, `Set ${at} to a number.`);
  return { kind: 'field', field, test: t === 'gt' ? { gt: value } : { lt: value } };
}

function eventCondition(raw: Record<string, unknown>, path: string): SegmentCondition {
  const event = text(raw.event, `${path}.event`, 'an event name');
  if (raw.never !== undefined && raw.never !== true)
    throw new Bad(`${path}.never`, `Set ${path}.never to true, or leave it out.`);
  const never = raw.never === true;
  if (never && raw.atLeast !== undefined)
    throw new Bad(`${path}.atLeast`, `A condition with "never" takes no atLeast: remove ${path}.atLeast.`);
  const atLeast =
    raw.atLeast === undefined ? 1 : wholeNumber(raw.atLeast, `${path}.atLeast`, 1, SEGMENT_LIMITS.atLeast);
  const withinDays =
    raw.withinDays === undefined
      ? null
      : wholeNumber(raw.withinDays, `${path}.withinDays`, 1, SEGMENT_LIMITS.withinDays);
  return { kind: 'event', event, atLeast, never, withinDays };
}

function firstTouchCondition(raw: Record<string, unknown>, path: string): SegmentCondition {
  const part = raw.firstTouch;
  if (typeof part !== 'string' || !(FIRST_TOUCH_PARTS as readonly string[]).includes(part))
    throw new Bad(`${path}.firstTouch`, `Set ${path}.firstTouch to one of ${FIRST_TOUCH_PARTS.join(', ')}.`);
  return { kind: 'firstTouch', part: part as FirstTouchPart, equals: text(raw.equals, `${path}.equals`, 'the value') };
}

/** The definition's shape, or a refusal naming its bad part (details.field, e.g. definition.all[1].atLeast). */
export function parseDefinition(raw: unknown, path = 'definition'): SegmentCondition | Refusal {
  try {
    return new Reader().condition(raw, path, 1);
  } catch (error) {
    if (error instanceof Bad) return new Refusal('invalid_field', error.message, { field: error.path });
    throw error;
  }
}

/** Every condition of a definition, depth first. */
export function conditionsOf(def: SegmentCondition): SegmentCondition[] {
  if (def.kind === 'all' || def.kind === 'any') return [def, ...def.of.flatMap(conditionsOf)];
  if (def.kind === 'not') return [def, ...conditionsOf(def.of)];
  return [def];
}

/** The event names and list addresses a definition names: the service checks the workspace has them. */
export function definitionNames(def: SegmentCondition): { events: string[]; lists: string[] } {
  const all = conditionsOf(def);
  const events = all.flatMap((c) => (c.kind === 'event' ? [c.event] : []));
  const lists = all.flatMap((c) => (c.kind === 'list' ? [c.list] : []));
  return { events: [...new Set(events)], lists: [...new Set(lists)] };
}

/** The event windows of a definition: as time passes, a person's count in one changes without a write. */
export function windowsOf(def: SegmentCondition): Array<{ event: string; days: number }> {
  const seen = new Map<string, { event: string; days: number }>();
  for (const c of conditionsOf(def))
    if (c.kind === 'event' && c.withinDays !== null)
      seen.set(`${c.event}/${c.withinDays}`, { event: c.event, days: c.withinDays });
  return [...seen.values()];
}
