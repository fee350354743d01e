// The worker's side of the sweeps: one repeatable job a minute runs every registered sweep.
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { Job, Queue } from 'bullmq';
import { queueModule } from '../queues/queue-module';
import { SWEEP_JOB, SWEEP_SCHEDULE } from '../queues/queues';
import { WorkerErrors } from '../queues/worker-errors';
import { SweepRegistry } from './sweeps';

@Processor(SWEEP_JOB.queue)
export class SweepsProcessor extends WorkerHost {
  constructor(private readonly sweeps: SweepRegistry) {
    super();
  }

  /**
   * A newer payload is put back for a newer worker (whose sweeps it names); an unreadable one fails without
   * retry and the next minute's job sweeps: a sweep only queues again what PostgreSQL holds
   * (docs/architecture.md#job-payloads).
   */
  async process(job: Job, token?: string): Promise<Record<string, number>> {
    await SWEEP_JOB.take(job, token);
    return this.sweeps.runAll();
  }
}

@Injectable()
export class SweepSchedule implements OnApplicationBootstrap {
  constructor(@InjectQueue(SWEEP_JOB.queue) private readonly queue: Queue) {}

  /** The schedule's payload is this release's: the worker started last sets it for every worker. */
  async onApplicationBootstrap(): Promise<void> {
    const { id, everyMs, job } = SWEEP_SCHEDULE;
    await this.queue.upsertJobScheduler(id, { every: everyMs }, { name: job.name, data: job.payload({}) });
  }
}

/** Also every queue worker's error listener (WorkerErrors): the worker app imports this module once. */
@Module({
  imports: [queueModule(SWEEP_JOB.queue), DiscoveryModule],
  providers: [SweepsProcessor, SweepSchedule, WorkerErrors],
})
export class SweepsWorkerModule {}
