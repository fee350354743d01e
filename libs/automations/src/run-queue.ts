// Puts runs on the automations queue. Best effort and bounded in time: while Redis is down the runs
// stay due in PostgreSQL and the worker's poll queues them again later.
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUES, within } from '@app/core';
import { ADVANCE_RUN_JOB, RunJob, runJobOptions } from './jobs/run.job';

const ENQUEUE_WAIT_MS = 2_000;

export interface RunJobRequest {
  workspaceId: string;
  runId: string;
  step: number;
  delayMs?: number;
}

@Injectable()
export class RunQueue {
  private readonly logger = new Logger('RunQueue');

  constructor(@InjectQueue(QUEUES.automations) private readonly queue: Queue<RunJob>) {}

  /** True when every job reached Redis; false leaves them to the poll. Never throws. */
  async enqueue(requests: RunJobRequest[]): Promise<boolean> {
    if (requests.length === 0) return true;
    const jobs = requests.map(({ workspaceId, runId, step, delayMs }) => ({
      name: ADVANCE_RUN_JOB,
      data: { workspaceId, runId },
      opts: runJobOptions(runId, step, delayMs),
    }));
    try {
      await within(this.queue.addBulk(jobs), ENQUEUE_WAIT_MS);
      return true;
    } catch (error) {
      this.logger.warn(`${requests.length} automation runs not queued now, the poll will: ${(error as Error).message}`);
      return false;
    }
  }
}
