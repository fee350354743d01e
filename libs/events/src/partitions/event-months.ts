// The events table by month (docs/decisions.md#events-by-month): a partition per calendar month of
// occurred_at in UTC, named events_y2026m11, and a default partition for rows of a month that has none.

/** Months made ahead of the current one, so a normal day's rows never land in the default partition. */
const MONTHS_AHEAD = 3;

/** The first instant (UTC) of the month holding `at`, `offset` months on. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** The partition of the month starting at `start`. */
export function partitionName(start: Date): string {
  const year = String(start.getUTCFullYear()).padStart(4, '0');
  const month = String(start.getUTCMonth() + 1).padStart(2, '0');
  return `events_y${year}m${month}`;
}

/** The months that must have a partition at `now`: the current one and MONTHS_AHEAD after it. */
export function monthsDue(now: Date): Date[] {
  return Array.from({ length: MONTHS_AHEAD + 1 }, (_, i) => monthStart(now, i));
}
