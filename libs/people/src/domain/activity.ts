// A person's last seen and revenue as their row keeps them (docs/decisions.md#last-seen-and-revenue-on-the-person):
// what the people list shows and sorts by, moved by each post as it arrives.
import { PURCHASE_EVENTS } from './stage-ladder';

/** Kinds whose value is money the person paid. */
export const PAID_EVENTS: ReadonlySet<string> = new Set([...PURCHASE_EVENTS, 'subscription_renewed']);
/** The kind whose value was given back. */
export const REFUND_EVENT = 'refund';

/** Last seen moves in steps of a minute at least, so a visitor's every pageview does not rewrite their row. */
export const LAST_SEEN_STEP_MS = 60_000;

/** How an event of this kind and value changes what the person paid: added, taken back, or nothing. */
export function revenueChange(type: string, value: number | null | undefined): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  if (PAID_EVENTS.has(type)) return value;
  return type === REFUND_EVENT ? -value : 0;
}

/** Numeric text plus a change, to a millionth (values are whole currency units, often with cents). */
export function addToRevenue(revenue: string, change: number): string {
  return String(Math.round((Number(revenue) + change) * 1e6) / 1e6);
}

/** The person's new last seen after something they did at `at`, or null when it stays (not a minute later). */
export function nextLastSeen(lastSeen: Date, at: Date): Date | null {
  return at.getTime() - lastSeen.getTime() >= LAST_SEEN_STEP_MS ? at : null;
}
