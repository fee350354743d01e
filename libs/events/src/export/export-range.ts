// docs/rest.md#every-event-out-as-a-stream: the range an export reads (from inclusive, to exclusive) and the
// cursor that resumes it after the last line a client kept.
import { Refusal } from '@app/platform/plain';
import { parseInstant } from '@app/edge/posted-input';

/** A position in the export's order, (occurred_at, id): occurred_at in microseconds, exact. */
export interface ExportPosition {
  atMicros: string;
  id: string;
}

export interface ExportRange {
  from: Date;
  /** Exclusive. */
  to: Date;
  /** Resume after this line (the cursor of the last line kept). */
  after?: ExportPosition;
}

/** What GET /api/v1/events/export and the CLI take, by the query's names. */
export interface WireEventsExportQuery {
  /** The first instant read (inclusive), ISO 8601. */
  from: string;
  /** The instant the export stops before (exclusive), ISO 8601. */
  to: string;
  /** The cursor of the last line kept: the export resumes just after it, in the same from and to. */
  after?: string;
}

/** A line's cursor: `<microseconds>-<id>`, as PostgreSQL writes it into the line. */
const CURSOR = /^(\d{1,20})-([A-Za-z0-9_]{1,80})$/;
/** The base64url of `<microseconds>:<id>`, the cursor of the first lines written: still resumed. */
const EARLIER_POSITION = /^(\d{1,20}):([A-Za-z0-9_]{1,80})$/;

export function decodeExportCursor(cursor: string): ExportPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const match = CURSOR.exec(cursor) ?? EARLIER_POSITION.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? { atMicros: match[1], id: match[2] } : null;
}

function single(query: Record<string, unknown>, name: keyof WireEventsExportQuery): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Refusal('invalid_field', `Send ${name} once, as a single value.`);
  return value.trim() === '' ? undefined : value.trim();
}

function instant(query: Record<string, unknown>, name: 'from' | 'to'): Date {
  const raw = single(query, name);
  if (raw === undefined)
    throw new Refusal(
      'invalid_field',
      `Send ${name} as an ISO 8601 date or time, like 2026-01-01 or 2026-01-31T09:30Z.`,
    );
  const at = parseInstant(raw);
  if (!at)
    throw new Refusal(
      'invalid_field',
      `${name} is not an ISO 8601 date or time: send one like 2026-01-01 or 2026-01-31T09:30Z.`,
    );
  return at;
}

/** The query's range, or invalid_field naming the parameter to fix. */
export function parseExportRange(query: Record<string, unknown>): ExportRange {
  const from = instant(query, 'from');
  const to = instant(query, 'to');
  if (to.getTime() <= from.getTime())
    throw new Refusal('invalid_field', 'Send a to after from: the export reads from from up to, not including, to.');
  const cursor = single(query, 'after');
  if (cursor === undefined) return { from, to };
  const after = decodeExportCursor(cursor);
  if (!after)
    throw new Refusal(
      'invalid_field',
      'after is not an export cursor: pass the cursor of the last line you kept, unchanged.',
    );
  return { from, to, after };
}
