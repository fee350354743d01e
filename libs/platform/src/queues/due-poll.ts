// The worker's poll for work that is due in PostgreSQL but may have no job in Redis (a job lost with
// Redis, never queued while it was down, or left by a killed worker): on a timer and on demand (the
// minute sweep), one pass at a time; a call during a pass shares it.
import { Logger } from '@nestjs/common';

/** How often a worker looks for due work that has no job (besides the minute sweep). */
const DUE_POLL_MS = 2_000;
/** Due work is left to its job for this long before the poll queues it again. */
const DUE_GRACE_MS = 2_000;
/** The most one pass queues. */
const DUE_BATCH = 1_000;

/** The work one poll looks after, as its owner stores and queues it. */
export interface DueWork<T> {
  /** Up to `batch` items due for longer than `graceMs`, whose job may be lost. */
  due(graceMs: number, batch: number): Promise<T[]>;
  /** Queues them again; equal job ids make this a no-op for jobs still in Redis. */
  enqueue(due: T[]): Promise<unknown>;
}

export class DuePoll<T> {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    name: string,
    private readonly work: DueWork<T>,
  ) {
    this.logger = new Logger(name);
  }

  start(): void {
    this.timer = setInterval(
      () => void this.run().catch((error: Error) => this.logger.warn(`due poll: ${error.message}`)),
      DUE_POLL_MS,
    );
    this.timer.unref();
  }

  /** One pass; returns how many it queued. */
  run(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<number> {
    const due = await this.work.due(DUE_GRACE_MS, DUE_BATCH);
    await this.work.enqueue(due);
    return due.length;
  }
}
