// Async contexts at rest. Node 20 keeps its async hooks, promise hooks among them, on from an
// AsyncLocalStorage's first run() until every instance is disabled: from then on every promise made
// anywhere in the process pays for them. The api's contexts are the read scope (database/prepared.ts)
// and the request logger's (nestjs-pino); the first GraphQL request turned them on for good, and the hot
// doors, which use neither, paid for them: at rest, the api's CPU per single-event post measured 0.88×
// (docs/decisions.md#ingest-speed, its list of what was measured: async contexts at rest).
//
// So whatever runs in a context holds them while it runs: each request Express answers (HotDoors
// dispatches it) until its answer closes, and each readsFromReplica/readsFromPrimary until its work
// settles. Once nothing has held them for REST_AFTER_MS the instances are disabled, which turns the
// hooks off; the next run() turns them on again (Node's own). Work that outlives every hold by that long
// (a resolver still running 10 s after its client left) finds no context: its reads go to the primary
// with no statement timeout of the request's, and its log lines carry no request id.
import type { AsyncLocalStorage } from 'node:async_hooks';
import { storage as requestLoggers } from 'nestjs-pino/storage';
import { readScope } from '../database/prepared';

export const REST_AFTER_MS = 10_000;

export class ContextsAtRest {
  private holds = 0;
  private idleSince = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly contexts: ReadonlyArray<AsyncLocalStorage<unknown>>,
    private readonly restAfterMs = REST_AFTER_MS,
  ) {}

  /** Holds not yet released (what a test reads). */
  get held(): number {
    return this.holds;
  }

  /** Keeps the contexts on until the returned release is called (once; later calls do nothing). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      this.idleSince = Date.now();
      this.arm(this.restAfterMs);
    };
  }

  /** Runs `work` holding the contexts until it returns or, when it returns a promise, until that settles. */
  holding<T>(work: () => T): T {
    const release = this.hold();
    try {
      const result = work();
      if (result instanceof Promise) result.then(release, release);
      else release();
      return result;
    } catch (error) {
      release();
      throw error;
    }
  }

  private arm(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.holds > 0) return;
      const left = this.idleSince + this.restAfterMs - Date.now();
      if (left > 0) return this.arm(left);
      for (const context of this.contexts) context.disable();
    }, ms);
    this.timer.unref();
  }
}

/** The process's contexts: the read scope and the request logger's. */
export const contextsAtRest = new ContextsAtRest([readScope, requestLoggers]);
