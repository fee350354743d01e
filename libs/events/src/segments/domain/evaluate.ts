// docs/decisions.md#live-membership-on-the-write-counted-in-slots-announced-once-filled: a definition answered in
// memory for a person whose every fact the post holds: someone the post itself created has no events, lists or
// fields but the post's, so the post decides their segments without asking the database. The answer is the
// compiled condition's (compile.ts) for the same facts, NULLs included; the property test holds both to a full
// recomputation.
import type { FieldValue, SegmentCondition } from './definition';

const DAY_MS = 86_400_000;

/** Everything a definition can read of a person. */
export interface PersonFacts {
  stage: string | null;
  email: string | null;
  name: string | null;
  fields: Record<string, unknown>;
  engagedAt: unknown;
  firstTouch: Record<string, unknown> | null;
  /** The person's timeline rows: their events, by name and time. */
  events: ReadonlyArray<{ type: string; at: Date }>;
  /** The addresses of the lists the person is subscribed to now. */
  lists: ReadonlySet<string>;
}

/** JSON equality of a stored value and a definition's value, as jsonb's `=` has it. */
const same = (stored: unknown, value: FieldValue) => typeof stored === typeof value && stored === value;

function fieldValue(facts: PersonFacts, field: string): unknown {
  if (field === 'email' || field === 'name') return facts[field] ?? undefined;
  return facts.fields[field];
}

function fieldTest(c: Extract<SegmentCondition, { kind: 'field' }>, facts: PersonFacts): boolean {
  const stored = fieldValue(facts, c.field);
  const test = c.test;
  if ('exists' in test) return (stored !== undefined && stored !== null) === test.exists;
  if ('equals' in test) return same(stored, test.equals);
  if ('in' in test) return test.in.some((v) => same(stored, v));
  if (typeof stored !== 'number') return false;
  return 'gt' in test ? stored > test.gt : stored < test.lt;
}

function eventCount(c: Extract<SegmentCondition, { kind: 'event' }>, facts: PersonFacts, now: Date): number {
  const since = c.withinDays === null ? null : now.getTime() - c.withinDays * DAY_MS;
  return facts.events.filter((e) => e.type === c.event && (since === null || e.at.getTime() > since)).length;
}

/** Whether the person is a member, as the compiled condition answers for these facts at `now`. */
export function evaluate(c: SegmentCondition, facts: PersonFacts, now: Date): boolean {
  switch (c.kind) {
    case 'stage':
      return facts.stage !== null && (c.stages as string[]).includes(facts.stage);
    case 'list':
      return facts.lists.has(c.list);
    case 'field':
      return fieldTest(c, facts);
    case 'event':
      return c.never ? eventCount(c, facts, now) === 0 : eventCount(c, facts, now) >= c.atLeast;
    case 'engaged':
      return (facts.engagedAt !== null && facts.engagedAt !== undefined) === c.engaged;
    case 'firstTouch':
      return facts.firstTouch?.[c.part] === c.equals;
    case 'not':
      return !evaluate(c.of, facts, now);
    case 'all':
      return c.of.every((o) => evaluate(o, facts, now));
    default:
      return c.of.some((o) => evaluate(o, facts, now));
  }
}

/** A timeline row as a post writes it: its name, time and properties (a subscription's list). */
interface WrittenRow {
  type: string;
  occurred_at: string | Date;
  properties?: Record<string, unknown> | null;
}

/**
 * The facts of a person the post made, from their row and the post's timeline rows for them (in order): their
 * events, and the lists their subscribed and unsubscribed rows leave them on.
 */
export function factsOf(
  person: Pick<PersonFacts, 'stage' | 'email' | 'name'> & {
    fields: Record<string, unknown> | null;
    engaged_at: unknown;
    first_touch: Record<string, unknown> | null;
  },
  rows: readonly WrittenRow[],
): PersonFacts {
  const lists = new Set<string>();
  for (const row of rows) {
    const address = (row.properties?.list as { address?: string } | undefined)?.address;
    if (address && row.type === 'subscribed') lists.add(address);
    if (address && row.type === 'unsubscribed') lists.delete(address);
  }
  return {
    stage: person.stage,
    email: person.email,
    name: person.name,
    fields: person.fields ?? {},
    engagedAt: person.engaged_at,
    firstTouch: person.first_touch,
    events: rows.map((r) => ({ type: r.type, at: new Date(r.occurred_at) })),
    lists,
  };
}
