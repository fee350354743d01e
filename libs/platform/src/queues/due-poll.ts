// The worker's poll for work that is due in PostgreSQL but may have no job in Redis (a job lost with
// Redis, never queued while it was down, or left by a killed worker): on a timer and on demand (the
// minute sweep), one pass at a time; a call during a pass shares it.
import { Logger } from '@nestjs/common';

export class DuePoll {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<number>,
  ) {
    this.logger = new Logger(name);
  }

  start(everyMs: number): void {
    this.timer = setInterval(() => void this.run().catch((error: Error) => this.logger.warn(`due poll: ${error.message}`)), everyMs);
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
}
