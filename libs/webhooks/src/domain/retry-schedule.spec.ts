// docs/webhooks.md#delivery-retries-and-the-log: the retry schedule, and after the last attempt.
import { isDeliveryState, MAX_ATTEMPTS, RETRY_DELAYS_MINUTES, nextAttemptDelayMs } from './retry-schedule';

describe('retry schedule', () => {
  it('waits 1, 5, 30, 120 and 720 minutes after attempts 1 to 5', () => {
    expect(nextAttemptDelayMs(1)).toBe(60_000);
    expect(nextAttemptDelayMs(2)).toBe(5 * 60_000);
    expect(nextAttemptDelayMs(3)).toBe(30 * 60_000);
    expect(nextAttemptDelayMs(4)).toBe(120 * 60_000);
    expect(nextAttemptDelayMs(5)).toBe(720 * 60_000);
  });

  it('sends the first attempt at once', () => {
    expect(nextAttemptDelayMs(0)).toBe(0);
  });

  it('makes six attempts in all, then the delivery is marked failed (null)', () => {
    expect(MAX_ATTEMPTS).toBe(6);
    expect(RETRY_DELAYS_MINUTES).toEqual([1, 5, 30, 120, 720]);
    expect(nextAttemptDelayMs(6)).toBeNull();
    expect(nextAttemptDelayMs(7)).toBeNull();
    const attempts = [0, 1, 2, 3, 4, 5, 6].filter((made) => nextAttemptDelayMs(made) !== null);
    expect(attempts).toHaveLength(6);
  });

  it('spans about fifteen hours from first to last attempt', () => {
    let total = 0;
    for (let made = 1; nextAttemptDelayMs(made) !== null; made++) total += nextAttemptDelayMs(made)!;
    expect(total / 3_600_000).toBeCloseTo(14.6, 1);
  });

  it('runs in an injected unit of time so tests need not wait minutes', () => {
    expect(nextAttemptDelayMs(1, 10)).toBe(10);
    expect(nextAttemptDelayMs(5, 10)).toBe(7_200);
    expect(nextAttemptDelayMs(6, 10)).toBeNull();
  });

  it('refuses a count of attempts that is negative or not whole', () => {
    expect(() => nextAttemptDelayMs(-1)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(1.5)).toThrow(RangeError);
  });
});

describe('delivery states', () => {
  it('are pending, succeeded and failed, and nothing else', () => {
    expect(['pending', 'succeeded', 'failed'].every(isDeliveryState)).toBe(true);
    expect(isDeliveryState('retrying')).toBe(false);
    expect(isDeliveryState(undefined)).toBe(false);
  });
});
