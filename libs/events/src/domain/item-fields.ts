// The top-level fields each item takes (docs/rest.md#events, docs/rest.md#website-endpoints). A field the
// events endpoint or a website endpoint does not take is refused invalid_field, naming the field and the
// known one nearest it, never dropped: a misspelt occurred_at would record the event now, at the wrong time
// (docs/decisions.md#unknown-fields-are-refused). Segment's routes keep Segment's leniency and never call this.
// The lists are the wire types' own keys (Record<keyof …, true>), so a field added to the wire is known here
// at once, and one left out does not compile.
import { Refusal } from '@app/platform';
import { isObject } from '@app/edge/posted-input';
import type {
  WireBatch,
  WireEvent,
  WireHoneypot,
  WireIdentify,
  WirePublicIdentify,
  WirePublicSubscribe,
  WirePublicSupport,
  WireSubscribe,
  WireSupport,
  WireUnsubscribe,
} from '@app/wire';
import type { Command } from './commands';
import { itemAction, parseBody } from './event-input';
import { isHoneypot, type PublicAction } from './public-door';

type Fields<T> = Record<keyof Required<T>, true>;

const EVENT: Fields<WireEvent> = {
  type: true,
  email: true,
  anon_id: true,
  account_id: true,
  value: true,
  properties: true,
  occurred_at: true,
  expires_at: true,
  idempotency_key: true,
  detail: true,
  source: true,
};
const IDENTIFY: Fields<WireIdentify> = {
  type: true,
  email: true,
  anon_id: true,
  account_id: true,
  name: true,
  fields: true,
  source: true,
};
const SUBSCRIBE: Fields<WireSubscribe> = {
  type: true,
  email: true,
  list: true,
  consent: true,
  anon_id: true,
  source_label: true,
  source: true,
};
const UNSUBSCRIBE: Fields<WireUnsubscribe> = { type: true, email: true, list: true };
const SUPPORT: Fields<WireSupport> = {
  type: true,
  message: true,
  from: true,
  who: true,
  topic: true,
  version: true,
  anon_id: true,
  account_id: true,
  source: true,
};
const BATCH: Fields<WireBatch> = { events: true };
const HONEYPOT: Fields<WireHoneypot> = { hp: true, website: true };

/** The fields of each kind of item, in the order the docs list them. */
export const ITEM_FIELDS: Readonly<Record<Command['kind'], readonly string[]>> = {
  event: Object.keys(EVENT),
  identify: Object.keys(IDENTIFY),
  subscribe: Object.keys(SUBSCRIBE),
  unsubscribe: Object.keys(UNSUBSCRIBE),
  support: Object.keys(SUPPORT),
};

// The website's own shapes are the events endpoint's items and the honeypot: checked here, at compile time.
const PUBLIC: Record<PublicAction, readonly string[]> = {
  event: [...ITEM_FIELDS.event, ...Object.keys(HONEYPOT)],
  identify: Object.keys({ ...IDENTIFY, ...HONEYPOT } satisfies Fields<WirePublicIdentify>),
  subscribe: Object.keys({ ...SUBSCRIBE, ...HONEYPOT } satisfies Fields<WirePublicSubscribe>),
  support: Object.keys({ ...SUPPORT, ...HONEYPOT } satisfies Fields<WirePublicSupport>),
};

/** What the actions' own parsers refuse with a sentence of their own (identify takes no expires_at…): left to them. */
const OWN_RULE: Readonly<Record<string, true>> = { expires_at: true };

/** Where else a caller's own facts go, for a field that is no near miss of a known one. */
const OWN_FACTS: Partial<Record<Command['kind'], string>> = {
  event: 'put facts of your own in properties',
  identify: 'put fields of your own in fields',
};

const ARTICLE: Record<Command['kind'], string> = {
  event: 'an event',
  identify: 'an identify',
  subscribe: 'a subscribe',
  unsubscribe: 'an unsubscribe',
  support: 'a support post',
};

/**
 * The optimal string alignment distance: insertions, deletions, substitutions, and a swap of two neighbours
 * (emial → email), each one edit.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** Past this, a name is more than a third away from every known one (the longest is 15 characters). */
const LONGEST_NAME = 64;

/** occurredAt, Occurred-At and occurred_at alike: lower case, words joined by underscores. */
const spelling = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');

/**
 * The known name nearest `name`, or undefined when none is near enough to be what was meant: at most one
 * edit in three characters (so "ocurred_at" finds occurred_at, "plan" finds nothing).
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  if (name.length > LONGEST_NAME) return undefined; // near nothing, and not worth the table
  const wanted = spelling(name);
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** The most of a posted name an answer repeats. */
const FIELD_SHOWN = 200;

const listed = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

function unknownField(name: string, kind: Command['kind'], known: readonly string[]): Refusal {
  const shown = JSON.stringify(name.slice(0, 40));
  const nearest = nearestName(name, known);
  const fix = nearest
    ? `did you mean ${nearest}?`
    : `send only ${listed(known)}` + (OWN_FACTS[kind] ? `, and ${OWN_FACTS[kind]}.` : '.');
  return new Refusal('invalid_field', `${shown} is not a field ${ARTICLE[kind]} takes: ${fix}`, {
    field: name.slice(0, FIELD_SHOWN),
    ...(nearest ? { nearest } : {}),
  });
}

function firstUnknown(raw: Record<string, unknown>, known: readonly string[]): string | undefined {
  for (const name in raw) if (!known.includes(name) && !OWN_RULE[name]) return name;
  return undefined;
}

/** An item of POST /api/v1/events with a field its kind does not take: that field's refusal. */
export function unknownItemField(raw: unknown, kind: Command['kind']): Refusal | undefined {
  if (!isObject(raw)) return undefined; // the item's own parser answers it
  const name = firstUnknown(raw, ITEM_FIELDS[kind]);
  return name === undefined ? undefined : unknownField(name, kind, ITEM_FIELDS[kind]);
}

/** A batch body with a field beside events. */
function unknownBatchField(raw: Record<string, unknown>): Refusal | undefined {
  const name = firstUnknown(raw, Object.keys(BATCH));
  if (name === undefined) return undefined;
  const nearest = nearestName(name, Object.keys(BATCH));
  return new Refusal(
    'invalid_field',
    `${JSON.stringify(name.slice(0, 40))} is not a field of a batch: send {"events": [...]} alone, each item ` +
      'with its own fields.',
    { field: name.slice(0, FIELD_SHOWN), ...(nearest ? { nearest } : {}) },
  );
}

/**
 * A website endpoint's body with a field its action does not take, or a type that is not the address's
 * action. A filled honeypot is no one's post: it is answered as usual (ingest), whatever else it holds.
 */
export function unknownPublicField(raw: unknown, action: PublicAction): Refusal | undefined {
  // An action posted to the event address is told which address takes it (parseItem's unknown_event).
  if (!isObject(raw) || isHoneypot(raw) || (action === 'event' && itemAction(raw) !== 'event')) return undefined;
  if (action !== 'event' && raw.type !== undefined && raw.type !== action) {
    return new Refusal(
      'invalid_field',
      `type is ${JSON.stringify(String(raw.type).slice(0, 40))}, but this address takes ${action}: leave type ` +
        'out, or post to the address of that action.',
      { field: 'type' },
    );
  }
  const name = firstUnknown(raw, PUBLIC[action]);
  return name === undefined ? undefined : unknownField(name, action, PUBLIC[action]);
}

/** A post to POST /api/v1/events as its door takes it: parseBody's, with each item's refusal for its fields. */
export type EventsPost =
  { batch: false; item: unknown } | { batch: true; items: unknown[]; fieldRefusals: Array<Refusal | undefined> };

/**
 * The body of POST /api/v1/events (parseBody), its fields checked: a single item with a field its kind does not
 * take is refused whole, a batch's such item in its place (the others go on), a batch with a field beside events
 * whole.
 */
export function parseEventsPost(raw: unknown): EventsPost | Refusal {
  const body = parseBody(raw);
  if (body instanceof Refusal) return body;
  if (!body.batch) return unknownItemField(body.item, itemAction(body.item)) ?? body;
  const beside = unknownBatchField(raw as Record<string, unknown>);
  if (beside) return beside;
  return { ...body, fieldRefusals: body.items.map((item) => unknownItemField(item, itemAction(item))) };
}
