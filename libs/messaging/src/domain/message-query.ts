// docs/rest.md#messages (GET /api/v1/messages, a page and a thread): query, cursor, keyset page.
import { Refusal } from '@app/platform';
import { isEmail, normalizeEmail } from '@app/people';

export const PAGE_LIMIT = { default: 50, min: 1, max: 100 } as const;

export interface MessageCursor {
  at: Date;
  id: string;
}

export interface MessageQuery {
  since?: Date;
  /** Inclusive; a date without a time means the end of that day (UTC). */
  until?: Date;
  /** A record id, or an email address (lower-cased). */
  person?: string;
  direction?: 'in' | 'out';
  limit: number;
  cursor?: MessageCursor;
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/;
const DAY_MS = 86_400_000;

/** ISO 8601 date or date-time -> Date; no zone means UTC. endOfDay picks the last millisecond of a bare date. */
export function parseIsoDate(value: string, endOfDay = false): Date | null {
  const m = ISO_8601.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  const check = new Date(day);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  if (h === undefined) return new Date(endOfDay ? day + DAY_MS - 1 : day);
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return null;
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  let at = day + ((Number(h) * 60 + Number(mi)) * 60 + Number(s ?? 0)) * 1000 + ms;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    at -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return new Date(at);
}

/** Opaque to callers: base64url of JSON {at, id}. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify({ at: at.toISOString(), id }), 'utf8').toString('base64url');
}

const badCursor = () =>
  new Refusal(
    'invalid_field',
    'Pass cursor back exactly as nextCursor gave it, or leave it out to start from the newest message.',
  );

export function decodeCursor(value: string): MessageCursor | Refusal {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(value)) return badCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return badCursor();
  }
  if (typeof parsed !== 'object' || parsed === null) return badCursor();
  const { at, id } = parsed as Record<string, unknown>;
  if (typeof at !== 'string' || typeof id !== 'string' || !CURSOR_ID.test(id)) return badCursor();
  const date = parseIsoDate(at);
  if (!date || date.toISOString() !== at) return badCursor();
  return { at: date, id };
}

type Field = 'since' | 'until' | 'person' | 'direction' | 'limit' | 'cursor';

/** One string per parameter: a repeated parameter is refused rather than silently picking one. */
function single(query: Record<string, unknown>, name: Field): string | undefined | Refusal {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return new Refusal('invalid_field', `Send ${name} once, as a single value.`);
  return value.trim() === '' ? undefined : value.trim();
}

function parseDateParam(query: Record<string, unknown>, name: 'since' | 'until'): Date | undefined | Refusal {
  const raw = single(query, name);
  if (raw === undefined || raw instanceof Refusal) return raw;
  const date = parseIsoDate(raw, name === 'until');
  return (
    date ??
    new Refusal('invalid_field', `Send ${name} as an ISO 8601 date or time, like 2025-01-31 or 2025-01-31T09:30:00Z.`)
  );
}

/** GET /api/v1/messages query -> filters and page, or invalid_field naming the parameter. */
export function parseMessageQuery(query: Record<string, unknown>): MessageQuery | Refusal {
  const since = parseDateParam(query, 'since');
  if (since instanceof Refusal) return since;
  const until = parseDateParam(query, 'until');
  if (until instanceof Refusal) return until;
  if (since && until && until < since) return new Refusal('invalid_field', 'Send an until that is not before since.');
  const result: MessageQuery = { limit: PAGE_LIMIT.default };
  if (since) result.since = since;
  if (until) result.until = until;

  const person = single(query, 'person');
  if (person instanceof Refusal) return person;
  if (person !== undefined) {
    if (person.length > 320)
      return new Refusal('invalid_field', 'Send person as a record id or an email address of at most 320 characters.');
    const email = normalizeEmail(person);
    result.person = isEmail(email) ? email : person;
  }

  const direction = single(query, 'direction');
  if (direction instanceof Refusal) return direction;
  if (direction !== undefined) {
    if (direction !== 'in' && direction !== 'out') return new Refusal('invalid_field', 'Send direction as in or out.');
    result.direction = direction;
  }

  const limit = single(query, 'limit');
  if (limit instanceof Refusal) return limit;
  if (limit !== undefined) {
    const n = /^\d{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (!(n >= PAGE_LIMIT.min && n <= PAGE_LIMIT.max))
      return new Refusal('invalid_field', 'Send limit as a whole number from 1 to 100.');
    result.limit = n;
  }

  const cursor = single(query, 'cursor');
  if (cursor instanceof Refusal) return cursor;
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor);
    if (decoded instanceof Refusal) return decoded;
    result.cursor = decoded;
  }
  return result;
}

/** Keyset order of a page: newest first by (at desc, id desc). */
export function compareNewestFirst(a: MessageCursor, b: MessageCursor): number {
  const byTime = b.at.getTime() - a.at.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** True when a row belongs after the cursor in newest-first order: SQL `(at, id) < (:at, :id)`. */
export function isAfterCursor(row: MessageCursor, cursor: MessageCursor): boolean {
  return compareNewestFirst(cursor, row) < 0;
}

/**
 * Cuts rows fetched with `LIMIT limit + 1` (already newest first) into a page;
 * nextCursor is present only when more remain.
 */
export function toPage<T extends MessageCursor>(rows: T[], limit: number): { items: T[]; nextCursor?: string } {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: encodeCursor(last.at, last.id) };
}
