// docs/webhooks.md#delivery-retries-and-the-log: the retry schedule, the attempts, and after the last.

/** Waits before attempts 2 to 6, in minutes: six attempts in all, about fifteen hours. */
export const RETRY_DELAYS_MINUTES: readonly number[] = Object.freeze([1, 5, 30, 120, 720]);

export const MAX_ATTEMPTS = 6;

/**
 * How long to wait before the next attempt, given how many attempts were already made.
 * 0 attempts made: send now (0). After the sixth: null, the delivery is marked failed.
 * unitMs is the length of a minute; tests pass a shorter one to run the schedule quickly.
 */
export function nextAttemptDelayMs(attemptsMade: number, unitMs = 60_000): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a whole number of attempts, got ${attemptsMade}`);
  }
  if (attemptsMade === 0) return 0;
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return RETRY_DELAYS_MINUTES[attemptsMade - 1] * unitMs;
}

/** What a delivery can be: still to be sent or retried, sent, or failed after its last attempt. */
export const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export function isDeliveryState(value: unknown): value is DeliveryState {
  return typeof value === 'string' && (DELIVERY_STATES as readonly string[]).includes(value);
}
