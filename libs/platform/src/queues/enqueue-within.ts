// Putting jobs on a queue, best effort and bounded in time: while Redis is down the work stays due in
// PostgreSQL and the worker's poll (DuePoll) queues it again later. The one copy for every queue.
import type { Logger } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { within } from '../async/within';

const ENQUEUE_WAIT_MS = 2_000;

/** True when every job reached Redis; false leaves them to the poll. Never throws. */
export async function enqueueWithin<T>(
  queue: Queue<T>,
  jobs: Array<{ name: string; data: T; opts: JobsOptions }>,
  what: string,
  logger: Pick<Logger, 'warn'>,
): Promise<boolean> {
  if (jobs.length === 0) return true;
  try {
    await within(queue.addBulk(jobs as never), ENQUEUE_WAIT_MS, 'Redis did not answer');
    return true;
  } catch (error) {
    logger.warn(`${jobs.length} ${what} not queued now, the poll will: ${(error as Error).message}`);
    return false;
  }
}
