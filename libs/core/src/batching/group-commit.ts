// Group commit: callers submit one item each; whatever arrives while a batch is being written goes
// into the next batch, written with one statement. An idle caller is written at once (no timer), so a
// lone request pays one round trip and a busy process pays one round trip per batch, not per item.
// Written here rather than taken from a library: the few that exist (dataloader among them) batch per
// event-loop tick and do not wait for the previous batch, which is the whole point here.

/** Writes a batch; returns one result per item, in the items' order. */
export type BatchRunner<I, O> = (items: I[]) => Promise<O[]>;

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

export class GroupCommit<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private running = false;

  constructor(
    private readonly run: BatchRunner<I, O>,
    private readonly maxBatch = 500,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        settle(batch, await this.run(batch.map((w) => w.item)));
      } catch (error) {
        if (batch.length === 1) {
          batch[0].reject(error);
          continue;
        }
        // One bad item must not fail the others: nothing of the failed statement was written, so each
        // item is written again on its own and only the ones that fail alone are refused.
        for (const w of batch) {
          try {
            settle([w], await this.run([w.item]));
          } catch (alone) {
            w.reject(alone);
          }
        }
      }
    }
    this.running = false;
  }
}

function settle<I, O>(batch: Array<Waiting<I, O>>, results: O[]): void {
  if (results.length !== batch.length) throw new Error(`batch of ${batch.length} gave ${results.length} results`);
  batch.forEach((w, i) => w.resolve(results[i]));
}
