// Endpoint health rules.
import { failureWindowMs, HealthTallies, HEALTH_BUCKET_MS, nextEndpointHealth, successRate } from './endpoint-health';

const DAY = 24 * 3600_000;
const WINDOW = failureWindowMs(5);
const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * DAY);
const healthy = { lastSuccessAt: at(0), failingSince: null, disabled: false };

describe('an address whose every delivery has failed for 5 days is disabled', () => {
  it('5 days are 7,200 minutes; tests shorten the minute', () => {
    expect(failureWindowMs(5)).toBe(5 * DAY);
    expect(failureWindowMs(5, 1)).toBe(7_200);
  });

  it('the first failure after a success starts the failing stretch', () => {
    const next = nextEndpointHealth(healthy, { lastSuccessAt: null, firstFailureAfterSuccess: at(1) }, at(1), WINDOW);
    expect(next).toEqual({ lastSuccessAt: at(0), failingSince: at(1), disable: false });
  });

  it('a failure 5 days into the stretch disables it; one just before does not', () => {
    const failing = { lastSuccessAt: at(0), failingSince: at(1), disabled: false };
    expect(
      nextEndpointHealth(failing, { lastSuccessAt: null, firstFailureAfterSuccess: at(5.99) }, at(5.99), WINDOW)
        .disable,
    ).toBe(false);
    expect(
      nextEndpointHealth(failing, { lastSuccessAt: null, firstFailureAfterSuccess: at(6) }, at(6), WINDOW),
    ).toEqual({
      lastSuccessAt: at(0),
      failingSince: at(1),
      disable: true,
    });
  });

  it('a success ends the stretch, even when other failures come in the same tally before it', () => {
    const failing = { lastSuccessAt: at(0), failingSince: at(1), disabled: false };
    expect(
      nextEndpointHealth(failing, { lastSuccessAt: at(6), firstFailureAfterSuccess: null }, at(6), WINDOW),
    ).toEqual({
      lastSuccessAt: at(6),
      failingSince: null,
      disable: false,
    });
    // A failure after that success starts a new stretch there.
    expect(
      nextEndpointHealth(failing, { lastSuccessAt: at(6), firstFailureAfterSuccess: at(6.5) }, at(6.5), WINDOW),
    ).toEqual({
      lastSuccessAt: at(6),
      failingSince: at(6.5),
      disable: false,
    });
  });

  it("another worker's later success counts: this tally's earlier failures no longer start a stretch before it", () => {
    const next = nextEndpointHealth(
      { lastSuccessAt: at(3), failingSince: null, disabled: false },
      { lastSuccessAt: null, firstFailureAfterSuccess: at(2) },
      at(3),
      WINDOW,
    );
    expect(next.failingSince).toEqual(at(3));
  });

  it('a disabled address is not disabled again, and nothing but failures disables', () => {
    const failing = { lastSuccessAt: null, failingSince: at(0), disabled: true };
    expect(
      nextEndpointHealth(failing, { lastSuccessAt: null, firstFailureAfterSuccess: at(9) }, at(9), WINDOW).disable,
    ).toBe(false);
    const quiet = { lastSuccessAt: null, failingSince: at(0), disabled: false };
    expect(
      nextEndpointHealth(quiet, { lastSuccessAt: null, firstFailureAfterSuccess: null }, at(9), WINDOW).disable,
    ).toBe(false);
  });
});

describe('success rate', () => {
  it('is succeeded attempts over all attempts, absent when there were none', () => {
    expect(successRate(3, 1)).toBe(0.75);
    expect(successRate(0, 4)).toBe(0);
    expect(successRate(0, 0)).toBeNull();
  });

  it('tallies count per 5-minute bucket and remember the last success and the first failure after it', () => {
    const tallies = new HealthTallies();
    const t0 = new Date(Math.floor(Date.now() / HEALTH_BUCKET_MS) * HEALTH_BUCKET_MS);
    tallies.record('ws', 'whe', false, t0);
    tallies.record('ws', 'whe', true, new Date(t0.getTime() + 1));
    tallies.record('ws', 'whe', false, new Date(t0.getTime() + 2));
    tallies.record('ws', 'whe', false, new Date(t0.getTime() + HEALTH_BUCKET_MS));
    const [tally] = tallies.drain();
    expect(tally.lastSuccessAt).toEqual(new Date(t0.getTime() + 1));
    expect(tally.firstFailureAfterSuccess).toEqual(new Date(t0.getTime() + 2));
    expect(tally.buckets).toEqual([
      { bucket: t0.getTime(), succeeded: 1, failed: 2 },
      { bucket: t0.getTime() + HEALTH_BUCKET_MS, succeeded: 0, failed: 1 },
    ]);
    expect(tallies.size).toBe(0);
  });

  it('a tally whose flush failed is put back under the newer counts', () => {
    const tallies = new HealthTallies();
    const t0 = new Date(Math.floor(Date.now() / HEALTH_BUCKET_MS) * HEALTH_BUCKET_MS);
    tallies.record('ws', 'whe', false, t0);
    const old = tallies.drain();
    tallies.record('ws', 'whe', false, new Date(t0.getTime() + 5));
    tallies.restore(old);
    const [tally] = tallies.drain();
    expect(tally.firstFailureAfterSuccess).toEqual(t0);
    expect(tally.buckets).toEqual([{ bucket: t0.getTime(), succeeded: 0, failed: 2 }]);
  });
});
