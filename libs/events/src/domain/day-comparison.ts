// The home page's figures of a day (docs/console.md#home): today so far against yesterday up to the same
// time, in UTC days as a chart's buckets are.
const DAY_MS = 86_400_000;

/** A span of time, from inclusive, to exclusive. */
export interface Span {
  from: Date;
  to: Date;
}

/** Today from UTC midnight to now, and yesterday from its midnight to the same time of day. */
export function todayAndYesterday(now: Date): { today: Span; yesterday: Span } {
  const midnight = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  return {
    today: { from: midnight, to: now },
    yesterday: { from: new Date(midnight.getTime() - DAY_MS), to: new Date(now.getTime() - DAY_MS) },
  };
}
