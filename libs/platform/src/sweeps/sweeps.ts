// Periodic clean-ups (expiry, retention). Contexts register their sweep; the worker runs them all
// from one repeatable BullMQ job every minute.
import { Injectable, Logger } from '@nestjs/common';

export type Sweep = () => Promise<number>;

@Injectable()
export class SweepRegistry {
  private readonly logger = new Logger('Sweeps');
  private readonly sweeps = new Map<string, Sweep>();

  register(name: string, sweep: Sweep): void {
    this.sweeps.set(name, sweep);
  }

  names(): string[] {
    return [...this.sweeps.keys()];
  }

  async runAll(): Promise<Record<string, number>> {
    const done: Record<string, number> = {};
    for (const [name, sweep] of this.sweeps) {
      try {
        done[name] = await sweep();
      } catch (error) {
        this.logger.error(`sweep ${name} failed: ${(error as Error).message}`);
        done[name] = -1;
      }
    }
    return done;
  }
}
