// Group commit: callers submit one item each; whatever arrives while a batch is being written goes
// into the next batch, written with one statement. An idle caller is written at once (no timer), so a
// lone request pays one round trip and a busy process pays one round trip per batch, not per item.
// Written here rather than taken from a library: the few that exist (dataloader among them) batch per
// event-loop tick and do not wait for the previous batch, which is the whole point here. The one
// helper for it: the deliveries' claims and settlements and the ingest's shared transactions use it.
import { isUnavailable } from '../errors/unavailable';

/** Writes a batch; returns one result per item, in the items' order. */
export type BatchRunner<I, O> = (items: I[]) => Promise<O[]>;

export type Isolated<O> = { ok: true; value: O } | { ok: false; error: unknown };

/**
 * Runs the items together; when that fails, each alone, so one bad item does not fail the others
 * (nothing of the failed statement or transaction was written). Answers each item's own outcome; while
 * the database cannot be reached, every item's outcome is that.
 */
export async function runIsolated<I, O>(run: BatchRunner<I, O>, items: I[], onShared?: (error: unknown) => void): Promise<Array<Isolated<O>>> {
  try {
    return checked(items, await run(items)).map((value) => ({ ok: true, value }));
  } catch (error) {
    // the database is away: each alone would fail alike (issue 33)
    if (items.length === 1 || isUnavailable(error)) return items.map(() => ({ ok: false, error }));
    onShared?.(error);
    const outcomes: Array<Isolated<O>> = [];
    for (const item of items) {
      try {
        outcomes.push({ ok: true, value: checked([item], await run([item]))[0] });
      } catch (alone) {
        outcomes.push({ ok: false, error: alone });
      }
    }
    return outcomes;
  }
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

export class GroupCommit<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private inFlight = 0;

  constructor(
    private readonly run: BatchRunner<I, O>,
    private readonly maxBatch = 500,
    /** Batches written at once; more arrive while they run and wait for the next free one. */
    private readonly maxInFlight = 1,
    private readonly onIdle?: () => void,
  ) {}

  get idle(): boolean {
    return this.inFlight === 0 && this.waiting.length === 0;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.idle) this.onIdle?.();
      });
    }
  }

  private async write(batch: Array<Waiting<I, O>>): Promise<void> {
    const outcomes = await runIsolated(this.run, batch.map((w) => w.item));
    outcomes.forEach((outcome, i) => (outcome.ok ? batch[i].resolve(outcome.value) : batch[i].reject(outcome.error)));
  }
}

/** One GroupCommit per key (a workspace's lane), made on first use and dropped when idle. */
export class GroupCommitLanes<I, O> {
  private readonly lanes = new Map<string, GroupCommit<I, O>>();

  constructor(
    private readonly run: (key: string, items: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
    private readonly maxInFlight = 1,
  ) {}

  submit(key: string, item: I): Promise<O> {
    let lane = this.lanes.get(key);
    if (!lane) {
      const made: GroupCommit<I, O> = new GroupCommit<I, O>((items) => this.run(key, items), this.maxBatch, this.maxInFlight, () => {
        if (this.lanes.get(key) === made) this.lanes.delete(key);
      });
      this.lanes.set(key, (lane = made));
    }
    return lane.submit(item);
  }

  get size(): number {
    return this.lanes.size;
  }
}

function checked<I, O>(items: I[], results: O[]): O[] {
  if (results.length !== items.length) throw new Error(`batch of ${items.length} gave ${results.length} results`);
  return results;
}
