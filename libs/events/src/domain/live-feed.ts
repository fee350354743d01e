// The console's live feed (liveEvents): which rows a poll reads, and the cursor it hands back.
import { Refusal } from '@app/platform';

/** A first poll (no cursor) answers the rows recorded in the last 15 minutes. */
export const LIVE_WINDOW_MS = 15 * 60_000;

/**
 * received_at is the start of the writing transaction, so a transaction that commits late holds rows
 * older than a read already answered: each poll reads again from this long before its cursor.
 */
export const LIVE_OVERLAP_MS = 10_000;

const PREFIX = 'live:';

/** The cursor of a poll: when it read (microseconds since the epoch, the database's clock). Opaque to clients. */
export function liveCursor(readMicros: string): string {
  return Buffer.from(`${PREFIX}${readMicros}`).toString('base64url');
}

/**
 * Where a poll reads from, in microseconds since the epoch: its cursor's read less the overlap; null for a first poll.
 */
export function liveSince(after: string | null | undefined): string | null {
  if (after === null || after === undefined) return null;
  const match = /^live:(\d{1,20})$/.exec(Buffer.from(after, 'base64url').toString());
  if (!match)
    throw new Refusal(
      'invalid_field',
      'after is not a cursor liveEvents gave: pass the cursor of the previous answer back unchanged, or leave it out.',
    );
  return String(BigInt(match[1]) - BigInt(LIVE_OVERLAP_MS) * 1000n);
}
