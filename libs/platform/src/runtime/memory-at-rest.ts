// Memory at rest after a start. The start-up grows the young generation to NODE_FLAGS'
// maximum (2 × 64 MB in the api) and V8's memory reducer gives it back only once its allocation samples
// of the start-up have aged out: 30 to 120 s later, unpredictably. V8 11 (Node 20) offers no collection
// that shrinks it on demand (`gc()` does not; `gc({...})` only scavenges), but its memory reducer checks
// every 8 s and, while `--optimize-for-size` is set, starts its memory-reducing collection at the next
// check (young generation back to its first size, old generation compacted). So once the process has
// been quiet for a few seconds after its start this sets that flag, and clears it as soon as the
// collection ran or the process is busy again: never a collection under load, once per start.
import { EventLoopUtilization, performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** How often the event loop's utilization and the young generation are looked at. */
export const REST_CHECK_MS = 1_000;

export interface RestLimits {
  /** Checks in a row with the loop busy less than `quietUtilization` of the time before asking. */
  quietChecks: number;
  quietUtilization: number;
  /** A young generation above this is worth a collection (Node's own default grows to 2 × 16 MB). */
  grownYoungBytes: number;
  /** V8 checks every 8 s; a reducer with nothing scheduled never answers, so the ask ends. */
  askForMs: number;
}

// An idle worker's loop reads 0.04-0.09 on this loaded machine (its polls); a loaded api reads near 1.
export const REST_LIMITS: RestLimits = {
  quietChecks: 3,
  quietUtilization: 0.2,
  grownYoungBytes: 16 * 2 ** 20,
  askForMs: 30_000,
};

export interface RestState {
  quiet: number;
  /** When V8 was asked (the flag set), or null. */
  askedAt: number | null;
}

export interface RestSample {
  at: number;
  utilization: number;
  youngBytes: number;
}

/** What to do after a check: set the flag, clear it, clear it and stop watching, or nothing. */
export type RestAction = 'ask' | 'withdraw' | 'finish' | 'none';

export const AT_START: RestState = { quiet: 0, askedAt: null };

export function nextRest(
  state: RestState,
  sample: RestSample,
  limits: RestLimits = REST_LIMITS,
): { state: RestState; action: RestAction } {
  // Nothing (more) to give back: the collection ran, or the young generation never grew.
  if (sample.youngBytes <= limits.grownYoungBytes) return { state: AT_START, action: 'finish' };
  if (sample.utilization >= limits.quietUtilization)
    return { state: AT_START, action: state.askedAt === null ? 'none' : 'withdraw' };
  if (state.askedAt !== null)
    return sample.at - state.askedAt >= limits.askForMs
      ? { state: AT_START, action: 'finish' }
      : { state, action: 'none' };
  const quiet = state.quiet + 1;
  return quiet >= limits.quietChecks
    ? { state: { quiet, askedAt: sample.at }, action: 'ask' }
    : { state: { quiet, askedAt: null }, action: 'none' };
}

/** Bytes the young generation holds (both semi-spaces, as committed). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** Whether the operator runs Node with --optimize-for-size already: then the flag is theirs, never cleared here. */
export function optimizesForSizeAlready(
  execArgv = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  return [...execArgv, nodeOptions].some((arg) => /--optimize[-_]for[-_]size/.test(arg));
}

export interface RestWatch {
  /** How many times V8 was asked, and whether the watch has ended (given back, or nothing to give). */
  readonly asks: number;
  readonly finished: boolean;
  stop(): void;
}

/** Watches from now (the process just started and is ready) until the young generation was given back. */
export function giveBackMemoryAtRest(checkMs = REST_CHECK_MS, limits: RestLimits = REST_LIMITS): RestWatch {
  let state = AT_START;
  let asks = 0;
  let finished = optimizesForSizeAlready();
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const stop = () => {
    if (state.askedAt !== null) setFlagsFromString('--no-optimize-for-size');
    state = AT_START;
    finished = true;
    clearInterval(timer);
  };
  const check = () => {
    const now = performance.eventLoopUtilization();
    const next = nextRest(
      state,
      {
        at: Date.now(),
        utilization: performance.eventLoopUtilization(now, last).utilization,
        youngBytes: youngGenerationBytes(),
      },
      limits,
    );
    last = now;
    if (next.action === 'finish') return stop();
    if (next.action === 'ask') {
      setFlagsFromString('--optimize-for-size');
      asks++;
    }
    if (next.action === 'withdraw') setFlagsFromString('--no-optimize-for-size');
    state = next.state;
  };
  const timer = setInterval(check, checkMs).unref();
  if (finished) clearInterval(timer);
  return {
    get asks() {
      return asks;
    },
    get finished() {
      return finished;
    },
    stop,
  };
}
