// The actions among posted items (docs/rest.md#events): identify, subscribe, unsubscribe and support, each a typed
// command or a Refusal.
import { Refusal } from '@app/platform';
import { identityKeys, parseSource } from '@app/people';
import type { Consent, IdentifyCommand, SubscribeCommand, SupportCommand, UnsubscribeCommand } from './commands';
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
import { LIMITS } from './input-limits';
import { readEmail, readId, readKeys } from './item-keys';

/** identify, subscribe and support never take expires_at: refused, so a caller does not think it applied. */
function refuseExpiry(input: Obj, action: string): Refusal | undefined {
  if (isAbsent(input.expires_at)) return undefined;
  return new Refusal('invalid_field', `${action} takes no expires_at: remove it, only events expire.`);
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

/** An unsubscribe item: invalid_email (email missing or bad), unknown_list (list not named), invalid_field. */
export function parseUnsubscribeItem(raw: unknown): UnsubscribeCommand | Refusal {
  if (!isObject(raw))
    return new Refusal('invalid_json', 'Unsubscribe must be a JSON object, like {"email": "…", "list": "…"}.');
  const email = readEmail(raw, 'email');
  if (email instanceof Refusal) return email;
  if (email === undefined)
    return new Refusal(
      'invalid_email',
      "Unsubscribe needs the subscriber's email address in email, like ada@example.com.",
    );
  const list = optionalText(raw, 'list', { max: LIMITS.list });
  if (list === undefined || list instanceof Refusal)
    return new Refusal('unknown_list', 'Name the list in list, using its address from the workspace list settings.');
  const expiry = refuseExpiry(raw, 'unsubscribe');
  if (expiry) return expiry;
  return { kind: 'unsubscribe', keys: identityKeys({ email }), email, list };
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
