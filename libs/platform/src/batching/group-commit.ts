// Group commit: callers submit one item each; whatever arrives while a batch is being written goes
// into the next batch, written with one statement. An idle caller is written at once (no timer), so a
// lone request pays one round trip and a busy process pays one round trip per batch, not per item.
// Written here rather than taken from a library: the few that exist (dataloader among them) batch per
// event-loop tick and do not wait for the previous batch, which is the whole point here. The one
// helper for it: the deliveries' claims and settlements and the ingest's shared transactions use it.
import { isUnavailable } from '../errors/unavailable';

/**
 * Writes a batch; returns one result per item, in the items' order. `opened` (GroupCommit's overlap)
 * says the batch holds what orders it before later ones (its rows locked), so another may start.
 */
export type BatchRunner<I, O> = (items: I[], opened?: () => void) => Promise<O[]>;

/**
 * When a second batch may run beside the first (maxInFlight above 1) without changing the order the
 * items arrived in: only once each running batch has called `opened`, and only when none of the next
 * batch's keys is a key of a running one. Items of one key are thus written in the order they arrived.
 */
export interface Overlap<I> {
  keysOf(item: I): Iterable<string>;
}

export type Isolated<O> = { ok: true; value: O } | { ok: false; error: unknown };

/**
 * Runs the items together; when that fails, each alone, so one bad item does not fail the others
 * (nothing of the failed statement or transaction was written). Answers each item's own outcome; while
 * the database cannot be reached, every item's outcome is that.
 */
export async function runIsolated<I, O>(
  run: BatchRunner<I, O>,
  items: I[],
  onShared?: (error: unknown) => void,
  opened?: () => void,
): Promise<Array<Isolated<O>>> {
  try {
    return checked(items, await run(items, opened)).map((value) => ({ ok: true, value }));
  } catch (error) {
    // the database is away: each alone would fail alike
    if (items.length === 1 || isUnavailable(error)) return items.map(() => ({ ok: false, error }));
    onShared?.(error);
    const outcomes: Array<Isolated<O>> = [];
    for (const item of items) {
      try {
        outcomes.push({ ok: true, value: checked([item], await run([item], opened))[0] });
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
  /** The item's keys (Overlap), read once: a waiting batch is looked at on every submit and every start. */
  keys?: Iterable<string>;
}

interface Running {
  keys: Set<string>;
  opened: boolean;
}

export class GroupCommit<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private readonly running = new Set<Running>();

  constructor(
    private readonly run: BatchRunner<I, O>,
    private readonly maxBatch = 500,
    /** Batches written at once; more arrive while they run and wait for the next free one. */
    private readonly maxInFlight = 1,
    private readonly onIdle?: () => void,
    /**
     * With it, a batch starts beside running ones only as Overlap says; without, whenever one of maxInFlight is free.
     */
    private readonly overlap?: Overlap<I>,
  ) {}

  get idle(): boolean {
    return this.running.size === 0 && this.waiting.length === 0;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running.size < this.maxInFlight && this.waiting.length > 0) {
      const keys = this.overlap ? this.keysOf(this.waiting.slice(0, this.maxBatch)) : new Set<string>();
      if (this.overlap && !this.mayStartBeside(keys)) return;
      const batch = this.waiting.splice(0, this.maxBatch);
      const running: Running = { keys, opened: !this.overlap };
      this.running.add(running);
      const opened = () => {
        if (running.opened) return;
        running.opened = true;
        this.pump();
      };
      void this.write(batch, opened).finally(() => {
        this.running.delete(running);
        this.pump();
        if (this.idle) this.onIdle?.();
      });
    }
  }

  private keysOf(batch: Array<Waiting<I, O>>): Set<string> {
    const keys = new Set<string>();
    for (const w of batch) for (const key of (w.keys ??= [...this.overlap!.keysOf(w.item)])) keys.add(key);
    return keys;
  }

  private mayStartBeside(keys: Set<string>): boolean {
    for (const running of this.running) {
      if (!running.opened) return false;
      for (const key of keys) if (running.keys.has(key)) return false;
    }
    return true;
  }

  private async write(batch: Array<Waiting<I, O>>, opened: () => void): Promise<void> {
    const outcomes = await runIsolated(
      this.run,
      batch.map((w) => w.item),
      undefined,
      opened,
    );
    outcomes.forEach((outcome, i) => (outcome.ok ? batch[i].resolve(outcome.value) : batch[i].reject(outcome.error)));
  }
}

/** One GroupCommit per key (a workspace's lane), made on first use and dropped when idle. */
export class GroupCommitLanes<I, O> {
  private readonly lanes = new Map<string, GroupCommit<I, O>>();

  constructor(
    private readonly run: (key: string, items: I[], opened?: () => void) => Promise<O[]>,
    private readonly maxBatch = 500,
    private readonly maxInFlight = 1,
    private readonly overlap?: Overlap<I>,
  ) {}

  submit(key: string, item: I): Promise<O> {
    let lane = this.lanes.get(key);
    if (!lane) {
      const made: GroupCommit<I, O> = new GroupCommit<I, O>(
        (items, opened) => this.run(key, items, opened),
        this.maxBatch,
        this.maxInFlight,
        () => {
          if (this.lanes.get(key) === made) this.lanes.delete(key);
        },
        this.overlap,
      );
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
