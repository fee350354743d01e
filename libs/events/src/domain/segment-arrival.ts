// When a Segment call arrived and when it happened (docs/rest.md#segments-http-tracking-api): a batch's
// sentAt and context, Segment's correction of a client's clock, and the ISO 8601 form items carry.
import { Refusal } from '@app/platform';
import { invalidField, isObject, Obj, parseInstant } from '@app/edge/posted-input';

/** What a call carries besides itself: when it arrived, and a batch's sentAt and context. */
export interface SegmentArrival {
  receivedAt: Date;
  /** A batch's own sentAt (read once: segmentArrival), for messages without theirs. */
  sentAt?: Date | null;
  /** A batch's own context, under each message's. */
  context?: Obj;
}

/** The arrival of a call, or of a batch with its own sentAt and context. */
export function segmentArrival(receivedAt: Date, batch?: Obj): SegmentArrival {
  if (!batch) return { receivedAt };
  return {
    receivedAt,
    sentAt: parseInstant(batch.sentAt),
    context: isObject(batch.context) ? batch.context : undefined,
  };
}

/** The ISO 8601 form Segment's libraries write (toISOString's), which Date.parse reads exactly and fast. */
const CANONICAL_INSTANT = /^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d(?:\.\d{1,3})?Z$/;

/** Milliseconds of an instant: the canonical form by Date.parse, any other by the events endpoint's own reader. */
function instantMs(value: unknown): number | null {
  if (typeof value === 'string' && CANONICAL_INSTANT.test(value)) {
    const ms = Date.parse(value);
    // Date.parse rolls 2026-02-30 over into March; the endpoint's reader refuses it, and so does this.
    if (!Number.isNaN(ms) && new Date(ms).getUTCDate() === Number(value.slice(8, 10))) return ms;
  }
  return parseInstant(value)?.getTime() ?? null;
}

/** Before year 10000, where toISOString writes four digits of year. */
const LAST_PLAIN_YEAR_MS = 253_402_300_800_000;
let isoSecond = NaN;
let isoPrefix = '';

/**
 * toISOString of ms, its second written once for the calls of that second: toISOString costs a
 * microsecond, as much as the rest of a call's mapping (bench/RESULTS.md).
 */
export function isoInstant(ms: number): string {
  if (!(ms >= 0 && ms < LAST_PLAIN_YEAR_MS)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 19);
  }
  const milli = ms - second * 1000;
  return `${isoPrefix}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/**
 * occurred_at (docs/decisions.md#segment-compatible-ingest): a call with both timestamp and originalTimestamp
 * comes from a library that stamps its own clock in originalTimestamp (RudderStack's), so its timestamp is
 * the caller's, taken as sent, as RudderStack's own server takes it. Otherwise the one stamp it carries,
 * corrected for the client's clock as Segment does: receivedAt − (sentAt − stamp).
 */
export function occurredAt(message: Obj, arrival: SegmentArrival): string | undefined | Refusal {
  const given = message.timestamp != null;
  const field = given ? 'timestamp' : 'originalTimestamp';
  const value = message[field];
  if (value == null) return undefined;
  const stamp = instantMs(value);
  if (stamp === null) return invalidField(field, 'an ISO 8601 date, like 2026-05-01T12:00:00.000Z');
  if (given && message.originalTimestamp != null) return isoInstant(stamp);
  const sentAt = message.sentAt == null ? arrival.sentAt?.getTime() : instantMs(message.sentAt);
  return isoInstant(sentAt == null ? stamp : arrival.receivedAt.getTime() - (sentAt - stamp));
}
