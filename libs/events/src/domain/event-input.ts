// interface.md "Resources and their fields", "Events endpoint" and "Errors", decisions.md sections 3 and 5:
// one posted item -> a typed command or a Refusal.
import { MAX_BATCH_ITEMS } from '@app/wire';
import { Refusal } from '@app/platform';
import {
  IdentityKey,
  identityKeys,
  isEmail,
  MAX_EMAIL_LENGTH,
  MAX_ID_LENGTH,
  normalizeEmail,
  parseSource,
  SOURCE_TEXT_MAX,
  SourceInput,
} from '@app/people';
import { classifyEventName } from './catalogue';
import type { Command, Consent, EventCommand, IdentifyCommand, SubscribeCommand, SupportCommand } from './commands';
import {
  invalidField,
  isAbsent,
  isIpAddress,
  isObject,
  isPlainObject,
  Obj,
  optionalText,
  parseInstant,
} from '@app/edge/posted-input';

/** Every limit of posted input, in one place (interface.md "Limits" and this project's own). */
export const LIMITS = {
  batchItems: MAX_BATCH_ITEMS,
  customName: { min: 2, max: 40 },
  email: MAX_EMAIL_LENGTH,
  identityId: MAX_ID_LENGTH,
  sourceText: SOURCE_TEXT_MAX,
  detail: 500,
  idempotencyKey: 200,
  name: 200,
  fields: 100,
  fieldKey: 64,
  fieldValue: 1_000,
  list: 200,
  consentText: 5_000,
  supportMessage: 10_000,
  shortText: 200,
} as const;

const notEmail = (field: string) =>
  new Refusal('invalid_email', `${field} is not an email address: send one like ada@example.com.`);

/** A normalized email, undefined when absent or blank, or invalid_email. */
function readEmail(input: Obj, field: string): string | undefined | Refusal {
  const value = input[field];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') return notEmail(field);
  const email = normalizeEmail(value);
  if (email === '') return undefined;
  return isEmail(email) ? email : notEmail(field);
}

/** An anon_id or account_id: refused, not cut, when too long, since a cut id would name someone else. */
function readId(input: Obj, field: 'anon_id' | 'account_id'): string | undefined | Refusal {
  return optionalText(input, field, { max: LIMITS.identityId });
}

/** The keys of email, anon_id and account_id; source.anon_id stands in for a missing anon_id. */
function readKeys(input: Obj, source: SourceInput | undefined, emailField = 'email'): IdentityKey[] | Refusal {
  const email = readEmail(input, emailField);
  if (email instanceof Refusal) return email;
  const anonId = readId(input, 'anon_id');
  if (anonId instanceof Refusal) return anonId;
  const accountId = readId(input, 'account_id');
  if (accountId instanceof Refusal) return accountId;
  return identityKeys({ email, anon_id: anonId ?? source?.anon_id, account_id: accountId });
}

/** identify, subscribe and support never take expires_at: refused, so a caller does not think it applied. */
function refuseExpiry(input: Obj, action: string): Refusal | undefined {
  if (isAbsent(input.expires_at)) return undefined;
  return new Refusal('invalid_field', `${action} takes no expires_at: remove it, only events expire.`);
}

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
    value: typeof raw.value === 'number' ? raw.value : undefined,
    properties: isPlainObject(raw.properties) ? raw.properties : undefined,
    occurredAt: dates.occurredAt,
    expiresAt: dates.expiresAt,
    idempotencyKey,
    detail,
    source,
  };
}

function readFields(raw: unknown): Record<string, string | number | null> | undefined | Refusal {
  if (isAbsent(raw)) return undefined;
  if (!isPlainObject(raw)) return invalidField('fields', 'an object of key to string, number or null');
  const entries = Object.entries(raw);
  if (entries.length > LIMITS.fields) return invalidField('fields', `at most ${LIMITS.fields} keys per identify`);
  for (const [key, value] of entries) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key))
      return invalidField(`fields key "${key.slice(0, 40)}"`, `1 to ${LIMITS.fieldKey} letters, digits, _ . or -`);
    if (typeof value === 'string' && value.length > LIMITS.fieldValue)
      return invalidField(`fields.${key}`, `at most ${LIMITS.fieldValue} characters long`);
    if (value !== null && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
      return invalidField(`fields.${key}`, 'a string, a number or null');
    }
  }
  return raw as Record<string, string | number | null>;
}

/** An identify item: nothing_to_identify, invalid_email, or invalid_field (expires_at included). */
export function parseIdentifyItem(raw: unknown): IdentifyCommand | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      'Identify must be a JSON object, like {"email": "ada@example.com", "name": "Ada"}.',
    );
  const source = parseSource(raw.source);
  if (source instanceof Refusal) return source;
  const keys = readKeys(raw, source);
  if (keys instanceof Refusal) return keys;
  if (keys.length === 0)
    return new Refusal('nothing_to_identify', 'Identify needs an email, anon_id or account_id: send at least one.');
  const expiry = refuseExpiry(raw, 'identify');
  if (expiry) return expiry;
  const name = optionalText(raw, 'name', { max: LIMITS.name });
  if (name instanceof Refusal) return name;
  const fields = readFields(raw.fields);
  if (fields instanceof Refusal) return fields;
  return { kind: 'identify', keys, name, fields, source };
}

const missingConsent = () =>
  new Refusal('missing_consent', 'Send consent.text with the exact words the person read next to the form.');

function readConsent(consent: unknown, requireConsentText: boolean): Consent | Refusal {
  if (typeof consent === 'string') {
    // On the public route consent.text is required, so a bare string there has no consent.text.
    if (requireConsentText || consent.trim() === '') return missingConsent();
    if (consent.length > LIMITS.consentText)
      return invalidField('consent', `at most ${LIMITS.consentText} characters long`);
    return { raw: consent, text: consent };
  }
  if (!isPlainObject(consent) || typeof consent.text !== 'string' || consent.text.trim() === '')
    return missingConsent();
  const text = consent.text;
  if (text.length > LIMITS.consentText)
    return invalidField('consent.text', `at most ${LIMITS.consentText} characters long`);
  const ip = optionalText(consent, 'ip', { max: 64 }, 'consent.ip');
  if (ip instanceof Refusal) return ip;
  if (ip !== undefined && !isIpAddress(ip))
    return invalidField('consent.ip', 'an IPv4 or IPv6 address, like 203.0.113.7');
  let grantedAt: Date | undefined;
  if (!isAbsent(consent.granted_at)) {
    const parsed = parseInstant(consent.granted_at);
    if (!parsed) return invalidField('consent.granted_at', 'an ISO 8601 date, like 2026-05-01T12:00:00Z');
    grantedAt = parsed;
  }
  return { raw: consent, text, ip, grantedAt };
}

/**
 * A subscribe item: invalid_email (email missing or bad), unknown_list (list not named),
 * missing_consent, invalid_field. A name is ignored: subscribe takes none, identify sets it.
 */
export function parseSubscribeItem(raw: unknown, options: { requireConsentText: boolean }): SubscribeCommand | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      'Subscribe must be a JSON object, like {"email": "…", "list": "…", "consent": {"text": "…"}}.',
    );
  const email = readEmail(raw, 'email');
  if (email instanceof Refusal) return email;
  if (email === undefined)
    return new Refusal(
      'invalid_email',
      "Subscribe needs the subscriber's email address in email, like ada@example.com.",
    );
  const list = optionalText(raw, 'list', { max: LIMITS.list });
  if (list === undefined || list instanceof Refusal) {
    return new Refusal('unknown_list', 'Name the list in list, using its address from the workspace list settings.');
  }
  const consent = readConsent(raw.consent, options.requireConsentText);
  if (consent instanceof Refusal) return consent;
  const expiry = refuseExpiry(raw, 'subscribe');
  if (expiry) return expiry;
  const source = parseSource(raw.source);
  if (source instanceof Refusal) return source;
  const anonId = readId(raw, 'anon_id');
  if (anonId instanceof Refusal) return anonId;
  const sourceLabel = optionalText(raw, 'source_label', { max: LIMITS.shortText });
  if (sourceLabel instanceof Refusal) return sourceLabel;
  const linked = anonId ?? source?.anon_id;
  return {
    kind: 'subscribe',
    keys: identityKeys({ email, anon_id: linked }),
    email,
    list,
    consent,
    anonId: linked,
    sourceLabel,
    source,
  };
}

/**
 * A support item: empty_message, invalid_email (a bad from), invalid_field, and no_identity when
 * neither from, anon_id (top level or source) nor account_id says who wrote.
 */
export function parseSupportItem(raw: unknown): SupportCommand | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      'Support must be a JSON object, like {"message": "…", "from": "ada@example.com"}.',
    );
  if (typeof raw.message !== 'string' || raw.message.trim() === '') {
    return new Refusal('empty_message', 'Send what the person wrote in message.');
  }
  const message = raw.message;
  if (message.length > LIMITS.supportMessage)
    return invalidField('message', `at most ${LIMITS.supportMessage} characters long`);
  const expiry = refuseExpiry(raw, 'support');
  if (expiry) return expiry;
  const source = parseSource(raw.source);
  if (source instanceof Refusal) return source;
  const keys = readKeys(raw, source, 'from');
  if (keys instanceof Refusal) return keys;
  const texts: Partial<Record<'who' | 'topic' | 'version', string>> = {};
  for (const field of ['who', 'topic', 'version'] as const) {
    const value = optionalText(raw, field, { max: LIMITS.shortText });
    if (value instanceof Refusal) return value;
    texts[field] = value;
  }
  if (keys.length === 0)
    return new Refusal('no_identity', 'Say who wrote: send from (their email address) or anon_id.');
  const from = keys.find((k) => k.kind === 'email')?.value;
  const anonId = keys.find((k) => k.kind === 'anon_id')?.value;
  return { kind: 'support', keys, message, from, ...texts, anonId, source };
}

export interface ParseOptions {
  /** The public route requires consent.text. */
  requireConsentText: boolean;
  /** Time of arrival, the default occurred_at. */
  now?: Date;
  /** A public door takes its own kind only (each has its own per-IP limit): another is unknown_event. */
  only?: Command['kind'];
}

/** The action of an item: identify, subscribe or support by its type, else an event (anything else too). */
export function itemAction(raw: unknown): Command['kind'] {
  const type = isObject(raw) ? raw.type : undefined;
  return type === 'identify' || type === 'subscribe' || type === 'support' ? type : 'event';
}

/** One item of POST /api/v1/events: identify, subscribe or support by its type, else an event. */
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
