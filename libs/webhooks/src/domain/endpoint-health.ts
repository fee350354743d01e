// Endpoint health (docs/webhooks.md#health-disabling-and-recovery): the success rate and last
// success over the last day, and disabling an address whose every delivery has failed for 5 days
// (Svix's rule), or at once when it answers 410 Gone (Standard Webhooks). Pure: the worker tallies
// attempt outcomes in memory and adds them to the database every few seconds with these rules.

/** Attempts are counted per 5 minutes; the success rate adds up the buckets of the last day. */
export const HEALTH_BUCKET_MS = 5 * 60_000;
export const SUCCESS_RATE_WINDOW_MS = 24 * 3600_000;

export interface EndpointHealthState {
  lastSuccessAt: Date | null;
  /** The first failure with no success after it; null while the last outcome was a success. */
  failingSince: Date | null;
  disabled: boolean;
}

/** What one process saw of one address since its last flush. */
export interface HealthTally {
  workspaceId: string;
  endpointId: string;
  lastSuccessAt: Date | null;
  /** The first failure after this tally's last success. */
  firstFailureAfterSuccess: Date | null;
  buckets: Array<{ bucket: number; succeeded: number; failed: number }>;
}

/** How long every delivery must have failed before the address is disabled; unitMs is a minute (tests shorten it). */
export function failureWindowMs(days: number, unitMs = 60_000): number {
  return days * 24 * 60 * unitMs;
}

export const goneReason = () => 'The receiver answered 410 Gone: it asked for no more deliveries.';
export const failingReason = (days: number, since: Date) =>
  `Every delivery failed for ${days} days (since ${since.toISOString()}).`;

/**
 * The address's health once a tally is added. A success (here or in the tally) after a failure ends
 * the failing stretch; the stretch starts at its first failure. The address is to be disabled when
 * the tally brings a failure and the stretch is at least `windowMs` old.
 */
export function nextEndpointHealth(
  state: EndpointHealthState,
  tally: Pick<HealthTally, 'lastSuccessAt' | 'firstFailureAfterSuccess'>,
  now: Date,
  windowMs: number,
): { lastSuccessAt: Date | null; failingSince: Date | null; disable: boolean } {
  const lastSuccessAt = latest(state.lastSuccessAt, tally.lastSuccessAt);
  const candidates: Date[] = [];
  if (state.failingSince && !(tally.lastSuccessAt && tally.lastSuccessAt >= state.failingSince))
    candidates.push(state.failingSince);
  // Another worker may have flushed a later success: failures before it no longer count.
  if (tally.firstFailureAfterSuccess) candidates.push(latest(tally.firstFailureAfterSuccess, lastSuccessAt)!);
  const failingSince = candidates.length === 0 ? null : new Date(Math.min(...candidates.map((d) => d.getTime())));
  const disable =
    !state.disabled &&
    tally.firstFailureAfterSuccess !== null &&
    failingSince !== null &&
    now.getTime() - failingSince.getTime() >= windowMs;
  return { lastSuccessAt, failingSince, disable };
}

/** Succeeded attempts over all attempts, 0 to 1; null when there were none. */
export function successRate(succeeded: number, failed: number): number | null {
  const total = succeeded + failed;
  return total === 0 ? null : succeeded / total;
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a >= b ? a : b;
}

/** Attempt outcomes of one process, per address, until they are flushed. */
export class HealthTallies {
  private tallies = new Map<string, HealthTally>();

  record(workspaceId: string, endpointId: string, ok: boolean, at: Date): void {
    const key = `${workspaceId}/${endpointId}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { workspaceId, endpointId, lastSuccessAt: null, firstFailureAfterSuccess: null, buckets: [] };
      this.tallies.set(key, tally);
    }
    if (ok) {
      tally.lastSuccessAt = at;
      tally.firstFailureAfterSuccess = null;
    } else {
      tally.firstFailureAfterSuccess ??= at;
    }
    const bucket = Math.floor(at.getTime() / HEALTH_BUCKET_MS) * HEALTH_BUCKET_MS;
    let counts = tally.buckets.find((b) => b.bucket === bucket);
    if (!counts) tally.buckets.push((counts = { bucket, succeeded: 0, failed: 0 }));
    if (ok) counts.succeeded++;
    else counts.failed++;
  }

  get size(): number {
    return this.tallies.size;
  }

  /** Everything recorded so far; the tallies start again empty. */
  drain(): HealthTally[] {
    const drained = [...this.tallies.values()];
    this.tallies = new Map();
    return drained;
  }

  /** Puts back tallies whose flush failed, under what was recorded since. */
  restore(tallies: HealthTally[]): void {
    for (const old of tallies) {
      const key = `${old.workspaceId}/${old.endpointId}`;
      const newer = this.tallies.get(key);
      if (!newer) {
        this.tallies.set(key, old);
        continue;
      }
      // The newer tally's success, if any, ends every failure the old one saw.
      if (!newer.lastSuccessAt) {
        newer.lastSuccessAt = old.lastSuccessAt;
        newer.firstFailureAfterSuccess = old.firstFailureAfterSuccess ?? newer.firstFailureAfterSuccess;
      }
      for (const b of old.buckets) {
        const same = newer.buckets.find((x) => x.bucket === b.bucket);
        if (same) {
          same.succeeded += b.succeeded;
          same.failed += b.failed;
        } else newer.buckets.push(b);
      }
    }
  }
}
