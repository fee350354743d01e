// docs/rest.md#events: camelCase options -> snake_case wire names. Only the
// names the spec gives are converted; properties and fields are the caller's own keys and stay as
// they are. A key the client does not know is sent unchanged, so wire names also work.
import type { WireItem, WireMessageQuery, WireSendMessage } from '@app/wire';
import type { ListQuery, Moment, SendOptions } from './types.js';

const WIRE_NAMES: Record<string, string> = {
  anonId: 'anon_id',
  accountId: 'account_id',
  occurredAt: 'occurred_at',
  expiresAt: 'expires_at',
  idempotencyKey: 'idempotency_key',
  sourceLabel: 'source_label',
  clickId: 'click_id',
  grantedAt: 'granted_at',
};

/** A Date as ISO 8601; an invalid Date is sent as its own words so the service refuses it by name. */
function wireMoment(value: Moment): string {
  if (!(value instanceof Date)) return value;
  return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** One level of options to wire names, with source and consent converted inside; undefined left out. */
function toWire(options: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(options)) return out;
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const name = WIRE_NAMES[key] ?? key;
    if (value instanceof Date) out[name] = wireMoment(value);
    // Only source and consent hold wire names inside; properties, fields and utm are sent as given.
    else if ((key === 'source' || key === 'consent') && isPlainObject(value)) out[name] = toWire(value);
    else out[name] = value;
  }
  return out;
}

/** An item of POST /api/v1/events; the action's type wins over a type in its options. */
export function wireItem(item: object, type?: string): WireItem {
  const wire = toWire(item);
  if (type !== undefined && type !== null) wire.type = type;
  return wire as unknown as WireItem;
}

export function wireSend(options: SendOptions): WireSendMessage {
  return toWire(options) as unknown as WireSendMessage;
}

/** GET /api/v1/messages query string, with a leading ? when anything is set. */
export function wireQuery(query: ListQuery | undefined): string {
  const params = new URLSearchParams();
  const wire: WireMessageQuery = {};
  if (isPlainObject(query)) {
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      (wire as Record<string, string>)[WIRE_NAMES[key] ?? key] =
        value instanceof Date ? wireMoment(value) : String(value);
    }
  }
  for (const [key, value] of Object.entries(wire)) params.set(key, value as string);
  const text = params.toString();
  return text ? `?${text}` : '';
}
