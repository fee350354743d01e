// interface.md "Resources and their fields" and "Events endpoint": one posted item -> a command or a Refusal.
import { Refusal } from '@app/core';
import { IdentityKey, identityKeys, isEmail, MAX_ID_LENGTH, normalizeEmail, parseSource, SourceInput } from '@app/people';
import { classifyEventName } from './catalogue';

export const LIMITS = {
  batchItems: 100,
  detail: 500,
  idempotencyKey: 200,
  name: 200,
  supportMessage: 10_000,
  consentText: 5_000,
  shortText: 200,
} as const;

export interface EventCommand {
  kind: 'event';
  type: string;
  custom: boolean;
  keys: IdentityKey[];
  value?: number;
  properties?: Record<string, unknown>;
  occurredAt: Date;
  expiresAt?: Date;
  idempotencyKey?: string;
  detail?: string;
  source?: SourceInput;
}

export interface IdentifyCommand {
  kind: 'identify';
  keys: IdentityKey[];
  name?: string;
  fields?: Record<string, string | number | null>;
  source?: SourceInput;
}

export interface SubscribeCommand {
  kind: 'subscribe';
  keys: IdentityKey[];
  email: string;
  list: string;
  consent: { raw: unknown; text: string; ip?: string; grantedAt?: Date };
  sourceLabel?: string;
  source?: SourceInput;
}

export interface SupportCommand {
  kind: 'support';
  keys: IdentityKey[];
  message: string;
  from?: string;
  who?: string;
  topic?: string;
  version?: string;
  source?: SourceInput;
}

export type Command = EventCommand | IdentifyCommand | SubscribeCommand | SupportCommand;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (field: string, what: string) => new Refusal('invalid_field', `${field} must be ${what}.`);

function optionalString(input: Obj, field: string, max: number): string | undefined | Refusal {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return invalid(field, 'a string');
  if (value.length > max) return invalid(field, `at most ${max} characters`);
  return value;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** email, anon_id, account_id (and source.anon_id, for posts on a visitor's behalf). */
function keysOf(input: Obj, source: SourceInput | undefined): IdentityKey[] | Refusal {
  for (const field of ['email', 'anon_id', 'account_id'] as const) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return invalid(field, 'a string');
    if (value.length > MAX_ID_LENGTH) return invalid(field, `at most ${MAX_ID_LENGTH} characters`);
  }
  const email = typeof input.email === 'string' && input.email.trim() !== '' ? normalizeEmail(input.email) : undefined;
  if (email !== undefined && !isEmail(email)) {
    return new Refusal('invalid_email', `"${email.slice(0, 80)}" is not an email address: send one like ada@example.com.`);
  }
  return identityKeys({ email, anon_id: (input.anon_id as string) || source?.anon_id, account_id: input.account_id as string });
}

function sourceOf(input: Obj): SourceInput | undefined | Refusal {
  return parseSource(input.source);
}

function noExpiry(input: Obj, action: string): Refusal | undefined {
  if (input.expires_at !== undefined) return new Refusal('invalid_field', `${action} takes no expires_at: remove it.`);
  return undefined;
}

export function parseEventItem(raw: unknown): EventCommand | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Each event must be a JSON object.');
  const kind = classifyEventName(raw.type);
  if (kind instanceof Refusal) return kind;
  const source = sourceOf(raw);
  if (source instanceof Refusal) return source;
  const keys = keysOf(raw, source);
  if (keys instanceof Refusal) return keys;
  if (keys.length === 0) return new Refusal('no_identity', 'Name the person with email, anon_id or account_id.');

  let occurredAt = new Date();
  if (raw.occurred_at !== undefined && raw.occurred_at !== null) {
    const parsed = date(raw.occurred_at);
    if (!parsed) return invalid('occurred_at', 'an ISO 8601 date, like 2026-05-01T12:00:00Z');
    occurredAt = parsed;
  }
  let expiresAt: Date | undefined;
  if (raw.expires_at !== undefined && raw.expires_at !== null) {
    const parsed = date(raw.expires_at);
    if (!parsed || parsed.getTime() <= occurredAt.getTime()) {
      return new Refusal('invalid_expiry', 'expires_at must be an ISO 8601 date after occurred_at.');
    }
    expiresAt = parsed;
  }
  if (raw.value !== undefined && raw.value !== null && (typeof raw.value !== 'number' || !Number.isFinite(raw.value))) {
    return invalid('value', 'a number, in whole currency units');
  }
  if (raw.properties !== undefined && raw.properties !== null && !isObject(raw.properties)) return invalid('properties', 'an object');
  const detail = optionalString(raw, 'detail', LIMITS.detail);
  if (detail instanceof Refusal) return detail;
  const idempotencyKey = optionalString(raw, 'idempotency_key', LIMITS.idempotencyKey);
  if (idempotencyKey instanceof Refusal) return idempotencyKey;

  return {
    kind: 'event',
    type: raw.type as string,
    custom: kind === 'custom',
    keys,
    value: typeof raw.value === 'number' ? raw.value : undefined,
    properties: isObject(raw.properties) ? raw.properties : undefined,
    occurredAt,
    expiresAt,
    idempotencyKey: idempotencyKey || undefined,
    detail,
    source,
  };
}

export function parseIdentifyItem(raw: unknown): IdentifyCommand | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Identify must be a JSON object.');
  const source = sourceOf(raw);
  if (source instanceof Refusal) return source;
  const keys = keysOf(raw, source);
  if (keys instanceof Refusal) return keys;
  if (keys.length === 0) return new Refusal('nothing_to_identify', 'Identify needs an email, anon_id or account_id.');
  const expiry = noExpiry(raw, 'identify');
  if (expiry) return expiry;
  const name = optionalString(raw, 'name', LIMITS.name);
  if (name instanceof Refusal) return name;
  let fields: Record<string, string | number | null> | undefined;
  if (raw.fields !== undefined && raw.fields !== null) {
    if (!isObject(raw.fields)) return invalid('fields', 'an object of key to string, number or null');
    for (const [key, value] of Object.entries(raw.fields)) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key)) return invalid(`fields key "${key.slice(0, 40)}"`, '1 to 64 of letters, digits, _ . -');
      if (value !== null && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
        return invalid(`fields.${key}`, 'a string, a number or null');
      }
    }
    fields = raw.fields as Record<string, string | number | null>;
  }
  return { kind: 'identify', keys, name: name?.trim() || undefined, fields, source };
}

export function parseSubscribeItem(raw: unknown, options: { requireConsentText: boolean }): SubscribeCommand | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Subscribe must be a JSON object.');
  const email = typeof raw.email === 'string' ? normalizeEmail(raw.email) : '';
  if (!isEmail(email)) return new Refusal('invalid_email', 'Subscribe needs the subscriber\'s email address, like ada@example.com.');
  if (typeof raw.list !== 'string' || raw.list.trim() === '') {
    return new Refusal('unknown_list', 'Name the list in list, using its address from the workspace list settings.');
  }
  const consent = raw.consent;
  let text: string | undefined;
  let ip: string | undefined;
  let grantedAt: Date | undefined;
  if (typeof consent === 'string') {
    if (options.requireConsentText) return new Refusal('missing_consent', 'Send consent as {"text": "…"} with the exact words the person read next to the form.');
    text = consent;
  } else if (isObject(consent)) {
    if (typeof consent.text === 'string') text = consent.text;
    if (consent.ip !== undefined && consent.ip !== null) {
      if (typeof consent.ip !== 'string' || consent.ip.length > 64) return invalid('consent.ip', 'an IP address string');
      ip = consent.ip;
    }
    if (consent.granted_at !== undefined && consent.granted_at !== null) {
      const parsed = date(consent.granted_at);
      if (!parsed) return invalid('consent.granted_at', 'an ISO 8601 date');
      grantedAt = parsed;
    }
  }
  if (!text || text.trim() === '') {
    return new Refusal('missing_consent', 'Send consent with the exact words the person read next to the form, as consent.text.');
  }
  if (text.length > LIMITS.consentText) return invalid('consent.text', `at most ${LIMITS.consentText} characters`);
  const expiry = noExpiry(raw, 'subscribe');
  if (expiry) return expiry;
  const source = sourceOf(raw);
  if (source instanceof Refusal) return source;
  const anonId = optionalString(raw, 'anon_id', MAX_ID_LENGTH);
  if (anonId instanceof Refusal) return anonId;
  const sourceLabel = optionalString(raw, 'source_label', LIMITS.shortText);
  if (sourceLabel instanceof Refusal) return sourceLabel;
  return {
    kind: 'subscribe',
    keys: identityKeys({ email, anon_id: anonId || source?.anon_id }),
    email,
    list: raw.list.trim(),
    consent: { raw: consent, text, ip, grantedAt },
    sourceLabel,
    source,
  };
}

export function parseSupportItem(raw: unknown): SupportCommand | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Support must be a JSON object.');
  if (typeof raw.message !== 'string' || raw.message.trim() === '') {
    return new Refusal('empty_message', 'Send what the person wrote in message.');
  }
  if (raw.message.length > LIMITS.supportMessage) return invalid('message', `at most ${LIMITS.supportMessage} characters`);
  const expiry = noExpiry(raw, 'support');
  if (expiry) return expiry;
  const strings: Record<string, string | undefined> = {};
  for (const field of ['from', 'who', 'topic', 'version', 'anon_id'] as const) {
    const value = optionalString(raw, field, field === 'anon_id' ? MAX_ID_LENGTH : LIMITS.shortText);
    if (value instanceof Refusal) return value;
    strings[field] = value?.trim() || undefined;
  }
  const from = strings.from ? normalizeEmail(strings.from) : undefined;
  if (from && !isEmail(from)) return new Refusal('invalid_email', `"${from.slice(0, 80)}" in from is not an email address: send one like ada@example.com.`);
  const source = sourceOf(raw);
  if (source instanceof Refusal) return source;
  const keys = identityKeys({ email: from, anon_id: strings.anon_id || source?.anon_id, account_id: typeof raw.account_id === 'string' ? raw.account_id : undefined });
  if (keys.length === 0) return new Refusal('no_identity', 'Say who wrote: send from (their email) or anon_id.');
  return { kind: 'support', keys, message: raw.message, from, who: strings.who, topic: strings.topic, version: strings.version, source };
}

/** One item of POST /api/v1/events: an event, or identify, subscribe or support by its type. */
export function parseItem(raw: unknown, options: { requireConsentText: boolean } = { requireConsentText: false }): Command | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Each item must be a JSON object.');
  switch (raw.type) {
    case 'identify':
      return parseIdentifyItem(raw);
    case 'subscribe':
      return parseSubscribeItem(raw, options);
    case 'support':
      return parseSupportItem(raw);
    default:
      return parseEventItem(raw);
  }
}

/** The body: one object, or {events: [1..100 items]}. */
export function parseBody(raw: unknown): { batch: false; item: unknown } | { batch: true; items: unknown[] } | Refusal {
  if (!isObject(raw)) return new Refusal('invalid_json', 'Send one JSON object, or {"events": [...]} with up to 100 items.');
  if (!('events' in raw) || raw.type !== undefined) return { batch: false, item: raw };
  if (!Array.isArray(raw.events) || raw.events.length === 0) {
    return new Refusal('invalid_json', 'events must be an array of 1 to 100 items.');
  }
  if (raw.events.length > LIMITS.batchItems) {
    return new Refusal('too_many_items', `A batch holds at most ${LIMITS.batchItems} items: split it into batches of 100.`);
  }
  return { batch: true, items: raw.events };
}
