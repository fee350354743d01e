// docs/rest.md#third-party-doors: a verified provider post becomes items of POST /api/v1/events (identify and
// event items), so the same ingest parses and applies them. Helpers shared by the four provider files.
import { isObject, type Obj } from '@app/edge/posted-input';

/** One item as the events endpoint takes it (type, email, account_id, value, properties, ...). */
export type DoorItem = Record<string, unknown>;

/** A provider post: its type (for the door's receipts) and the items it becomes; none means ignored. */
export interface DoorMapping {
  type: string;
  items: DoorItem[];
}

export interface PersonKeys {
  email?: string;
  account_id?: string;
}

export { isObject, type Obj };
export const objectAt = (v: unknown, key: string): Obj => (isObject(v) && isObject(v[key]) ? (v[key] as Obj) : {});
export const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
export const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export const ignored = (type: string): DoorMapping => ({ type, items: [] });

/** An instant as ISO 8601, from epoch seconds, epoch milliseconds or a date string; undefined when none. */
export function instant(value: unknown, unit: 's' | 'ms' = 's'): string | undefined {
  const date =
    typeof value === 'number'
      ? new Date(unit === 's' ? value * 1000 : value)
      : typeof value === 'string'
        ? new Date(value)
        : null;
  return date && Number.isFinite(date.getTime()) ? date.toISOString() : undefined;
}

/** An event item; idempotency_key makes a redelivery of the provider's event write nothing. */
export function eventItem(
  type: string,
  person: PersonKeys,
  at: { key: string; occurredAt?: string },
  extra: { value?: number; properties?: Obj } = {},
): DoorItem {
  return {
    type,
    ...person,
    ...(extra.value !== undefined ? { value: extra.value } : {}),
    ...(extra.properties ? { properties: dropUndefined(extra.properties) } : {}),
    ...(at.occurredAt ? { occurred_at: at.occurredAt } : {}),
    idempotency_key: `${at.key}:${type}`,
  };
}

/** The person's name, when the provider gives one. */
export function identifyItem(person: PersonKeys, name: string | undefined): DoorItem[] {
  return name ? [{ type: 'identify', ...person, name }] : [];
}

export function personKeys(email: unknown, accountId: unknown): PersonKeys | null {
  const keys: PersonKeys = {
    ...(text(email) ? { email: text(email) } : {}),
    ...(text(accountId) ? { account_id: text(accountId) } : {}),
  };
  return keys.email || keys.account_id ? keys : null;
}

function dropUndefined(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
