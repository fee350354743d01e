// Puts runs on the automations queue. Best effort and bounded in time: while Redis is down the runs
// stay due in PostgreSQL and the worker's poll queues them again later.
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { enqueueWithin, Stamped } from '@app/platform';
import { ADVANCE_RUN_JOB, RunJob, runJobOptions, ADVANCE_RUN } from './jobs/run.job';

export interface RunJobRequest {
  workspaceId: string;
  runId: string;
  step: number;
  delayMs?: number;
}

@Injectable()
export class RunQueue {
  private readonly logger = new Logger('RunQueue');

  constructor(@InjectQueue(ADVANCE_RUN.queue) private readonly queue: Queue<Stamped<RunJob>>) {}

  /** True when every job reached Redis; false leaves them to the poll. Never throws. */
  enqueue(requests: RunJobRequest[]): Promise<boolean> {
    const jobs = requests.map(({ workspaceId, runId, step, delayMs }) => ({
      name: ADVANCE_RUN_JOB,
      data: ADVANCE_RUN.payload({ workspaceId, runId }),
      opts: runJobOptions(runId, step, delayMs),
    }));
    return enqueueWithin(this.queue, jobs, 'automation runs', this.logger);
  }
}
