// The worker's side of the automations queue: one job advances one run (run.service.ts decides
// whether it may). Errors are logged, not thrown: the run stays due and the poll queues it again.
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AdvanceOutcome, RunService } from '../run.service';
import { ADVANCE_RUN } from './run.job';

/** Runs in flight per worker process; most of a step is waiting on a receiver or the database. */
const RUN_CONCURRENCY = 50;

@Processor(ADVANCE_RUN.queue, { concurrency: RUN_CONCURRENCY })
export class RunProcessor extends WorkerHost {
  private readonly logger = new Logger('AutomationRuns');

  constructor(private readonly runs: RunService) {
    super();
  }

  /**
   * The payload is read before the run's errors are caught: a newer one is put back for a newer worker, an
   * unreadable one fails without retry (removed, as every run job is once failed). Its run was never
   * claimed, so it stays due in PostgreSQL and the poll queues it again (docs/architecture.md#job-payloads).
   */
  async process(job: Job, token?: string): Promise<AdvanceOutcome | 'error'> {
    const { workspaceId, runId } = await ADVANCE_RUN.take(job, token);
    try {
      return await this.runs.advance(workspaceId, runId);
    } catch (error) {
      this.logger.error(`run ${runId}: ${(error as Error).message}; it is taken up again once its claim expires`);
      return 'error';
    }
  }
}
