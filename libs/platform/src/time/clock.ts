// The time that timing code reads and waits on, injected (CLOCK) so a test can drive it: claims and
// due times, retry waits, the relay's gaps and polls, health flushes, the database watch. SYSTEM_CLOCK is
// the real one; ManualClock (@app/platform/manual-clock) is the one tests move by hand.

/** A scheduled call; `cancel` drops it, `unref` lets the process exit while it waits (the system clock's). */
export interface ClockTimer {
  cancel(): void;
  unref(): ClockTimer;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once, `ms` from now. */
  setTimeout(fn: () => void, ms: number): ClockTimer;
  /** Calls `fn` every `ms` until cancelled. */
  setInterval(fn: () => void, ms: number): ClockTimer;
  /** Resolves `ms` from now, or at once when `signal` aborts (the caller checks which). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The injection token of the process's Clock (PlatformModule provides SYSTEM_CLOCK unless told otherwise). */
export const CLOCK = Symbol('CLOCK');

function systemTimer(handle: NodeJS.Timeout, clear: (handle: NodeJS.Timeout) => void): ClockTimer {
  const timer: ClockTimer = {
    cancel: () => clear(handle),
    unref: () => (handle.unref(), timer),
  };
  return timer;
}

/** Node's own timers and Date.now(). */
export const SYSTEM_CLOCK: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => systemTimer(setTimeout(fn, ms), clearTimeout),
  setInterval: (fn: () => void, ms: number) => systemTimer(setInterval(fn, ms), clearInterval),
  sleep: (ms: number, signal?: AbortSignal) => sleepOn(SYSTEM_CLOCK, ms, signal),
});

/** A sleep made of a clock's setTimeout: what both clocks' `sleep` is. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      timer.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
