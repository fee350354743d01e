// One posted item of the events endpoint (docs/rest.md#events) -> a typed command or a Refusal: an event
// here, an action (identify, subscribe, unsubscribe, support) in action-input.ts.
import { Refusal } from '@app/platform';
import { parseSource } from '@app/people';
import { classifyEventName } from './catalogue';
import type { Command, EventCommand } from './commands';
import {
  invalidField,
  isAbsent,
  isObject,
  isPlainObject,
  Obj,
  optionalText,
  parseInstant,
} from '@app/edge/posted-input';
import { parseIdentifyItem, parseSubscribeItem, parseSupportItem, parseUnsubscribeItem } from './action-input';
import { LIMITS } from './input-limits';
import { readKeys } from './item-keys';

/** Made only when refused: a Refusal is an Error, whose stack costs more than the rest of the parse. */
const badExpiry = () =>
  new Refusal('invalid_expiry', 'expires_at must be an ISO 8601 date after occurred_at, like 2030-01-01T00:00:00Z.');

function readDates(raw: Obj, now: Date): { occurredAt: Date; expiresAt?: Date } | Refusal {
  const expiresAt = isAbsent(raw.expires_at) ? undefined : parseInstant(raw.expires_at);
  if (expiresAt === null) return badExpiry();
  const occurredAt = isAbsent(raw.occurred_at) ? now : parseInstant(raw.occurred_at);
  if (occurredAt === null)
    return invalidField('occurred_at', 'an ISO 8601 date, like 2026-05-01T12:00:00Z, or left out');
  if (expiresAt && expiresAt.getTime() <= occurredAt.getTime()) return badExpiry();
  return { occurredAt, expiresAt };
}

/**
 * An event item. Checks in order: a JSON object (invalid_json); type (unknown_event,
 * reserved_event_name); source, which may carry the visitor's anon_id (invalid_field); identity
 * (invalid_email, invalid_field, then no_identity); expires_at (invalid_expiry); occurred_at, value,
 * properties, detail and idempotency_key (invalid_field). now is the time of arrival.
 */
export function parseEventItem(raw: unknown, now: Date = new Date()): EventCommand | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      'Each event must be a JSON object, like {"type": "signup", "email": "ada@example.com"}.',
    );
  const kind = classifyEventName(raw.type);
  if (kind instanceof Refusal) return kind;
  const source = parseSource(raw.source);
  if (source instanceof Refusal) return source;
  const keys = readKeys(raw, source);
  if (keys instanceof Refusal) return keys;
  if (keys.length === 0) return new Refusal('no_identity', 'Name the person with email, anon_id or account_id.');
  const dates = readDates(raw, now);
  if (dates instanceof Refusal) return dates;
  if (!isAbsent(raw.value) && (typeof raw.value !== 'number' || !Number.isFinite(raw.value))) {
    return invalidField('value', 'a number, in whole currency units');
  }
  if (!isAbsent(raw.properties) && !isPlainObject(raw.properties))
    return invalidField('properties', 'an object of string keys, like {"plan": "pro"}');
  const detail = optionalText(raw, 'detail', { max: LIMITS.detail });
  if (detail instanceof Refusal) return detail;
  const idempotencyKey = optionalText(raw, 'idempotency_key', { max: LIMITS.idempotencyKey, verbatim: true });
  if (idempotencyKey instanceof Refusal) return idempotencyKey;
  return {
    kind: 'event',
    type: raw.type as string,
    custom: kind === 'custom',
    keys,
    value: eventValue(raw),
    properties: isPlainObject(raw.properties) ? raw.properties : undefined,
    occurredAt: dates.occurredAt,
    expiresAt: dates.expiresAt,
    idempotencyKey,
    detail,
    source,
  };
}

/**
 * The event's value, the one charts sum (docs/decisions.md#graphql-admin-api): value, else properties.value
 * when it is a number, so a value given either way counts once; given both ways, the top-level one.
 */
function eventValue(raw: Obj): number | undefined {
  if (typeof raw.value === 'number') return raw.value;
  const inProperties = isPlainObject(raw.properties) ? raw.properties.value : undefined;
  return typeof inProperties === 'number' && Number.isFinite(inProperties) ? inProperties : undefined;
}

export interface ParseOptions {
  /** The public route requires consent.text. */
  requireConsentText: boolean;
  /** Time of arrival, the default occurred_at. */
  now?: Date;
  /** A public door takes its own kind only (each has its own per-IP limit): another is unknown_event. */
  only?: Command['kind'];
}

/** The action of an item: identify, subscribe, unsubscribe or support by its type, else an event (anything else). */
export function itemAction(raw: unknown): Command['kind'] {
  const type = isObject(raw) ? raw.type : undefined;
  return type === 'identify' || type === 'subscribe' || type === 'unsubscribe' || type === 'support' ? type : 'event';
}

/** One item of POST /api/v1/events: identify, subscribe, unsubscribe or support by its type, else an event. */
export function parseItem(raw: unknown, options: ParseOptions = { requireConsentText: false }): Command | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Each item must be a JSON object with a type.');
  const kind = itemAction(raw);
  if (options.only && kind !== options.only) {
    return new Refusal('unknown_event', `"${kind}" is not an event: post it to the ${kind} address instead.`);
  }
  switch (raw.type) {
    case 'identify':
      return parseIdentifyItem(raw);
    case 'subscribe':
      return parseSubscribeItem(raw, options);
    case 'unsubscribe':
      return parseUnsubscribeItem(raw);
    case 'support':
      return parseSupportItem(raw);
    default:
      return parseEventItem(raw, options.now);
  }
}

/** The items of {events: [1..100]}: too_many_items over 100, invalid_json for anything else malformed. */
export function parseBatch(raw: unknown): unknown[] | Refusal {
  if (!isObject(raw) || !Array.isArray(raw.events) || raw.events.length === 0) {
    return new Refusal('invalid_json', `Send {"events": [...]} with 1 to ${LIMITS.batchItems} items.`);
  }
  if (raw.events.length > LIMITS.batchItems) {
    return new Refusal(
      'too_many_items',
      `A batch holds at most ${LIMITS.batchItems} items: split it into batches of ${LIMITS.batchItems}.`,
    );
  }
  return raw.events;
}

/** The body: one item, or a batch when it has events and no type. */
export function parseBody(raw: unknown): { batch: false; item: unknown } | { batch: true; items: unknown[] } | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      `Send one JSON object, or {"events": [...]} with up to ${LIMITS.batchItems} items.`,
    );
  if (!('events' in raw) || raw.type !== undefined) return { batch: false, item: raw };
  const items = parseBatch(raw);
  return items instanceof Refusal ? items : { batch: true, items };
}
