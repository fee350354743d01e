// docs/decisions.md#live-membership-on-the-write-counted-in-slots-announced-once-filled: what a definition reads
// of a person, and whether a write's change to a person can move them in or out. A post recomputes a person's
// place in a segment only when it changed something the segment reads: a pageview of someone already known
// moves no segment that counts no pageviews and reads no first touch that was already set.
import { conditionsOf, type SegmentCondition } from './definition';
import type { PersonFacts } from './evaluate';

/** The person's columns a condition reads (people's row), by the name PersonRow gives them. */
type PersonColumn = 'stage' | 'fields' | 'email' | 'name' | 'engaged_at' | 'first_touch';

export interface SegmentInputs {
  columns: ReadonlySet<PersonColumn>;
  /** The event names it counts. */
  events: ReadonlySet<string>;
  /** Whether it reads list subscriptions. */
  lists: boolean;
}

/** What one write changed of one person. `whole`: a new person, or one a merge joined: every segment. */
export interface PersonChange {
  whole: boolean;
  columns: ReadonlySet<string>;
  /** The timeline rows the write added for the person, by name (an event's, subscribed, unsubscribed, …). */
  rows: ReadonlySet<string>;
  /** Everything about the person, when the write holds it all (someone it made): answered in memory (evaluate). */
  facts?: PersonFacts;
}

/** The rows that mean a subscription came or went. */
const LIST_ROWS = ['subscribed', 'unsubscribed'];

export function inputsOf(def: SegmentCondition): SegmentInputs {
  const columns = new Set<PersonColumn>();
  const events = new Set<string>();
  let lists = false;
  for (const c of conditionsOf(def)) {
    if (c.kind === 'stage') columns.add('stage');
    else if (c.kind === 'engaged') columns.add('engaged_at');
    else if (c.kind === 'firstTouch') columns.add('first_touch');
    else if (c.kind === 'field') columns.add(c.field === 'email' || c.field === 'name' ? c.field : 'fields');
    else if (c.kind === 'event') events.add(c.event);
    else if (c.kind === 'list') lists = true;
  }
  return { columns, events, lists };
}

/** Whether the change can move the person in or out of a segment reading `inputs`. */
export function mayMove(inputs: SegmentInputs, change: PersonChange): boolean {
  if (change.whole) return true;
  for (const column of inputs.columns) if (change.columns.has(column)) return true;
  for (const row of change.rows) {
    if (inputs.events.has(row)) return true;
    if (inputs.lists && LIST_ROWS.includes(row)) return true;
  }
  return false;
}
