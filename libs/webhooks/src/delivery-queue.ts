// Puts delivery attempts on the webhook-delivery queue. Best effort and bounded in time: while Redis
// is down the deliveries stay pending in PostgreSQL and the worker's poll queues them again later.
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUES, within } from '@app/core';
import { DELIVER_JOB, DeliveryJob, deliveryJobOptions, DeliveryJobRequest } from './jobs/delivery.job';

const ENQUEUE_WAIT_MS = 2_000;

@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger('DeliveryQueue');

  constructor(@InjectQueue(QUEUES.webhookDelivery) private readonly queue: Queue<DeliveryJob>) {}

  /** True when every job reached Redis; false leaves them to the poll. Never throws. */
  async enqueue(requests: DeliveryJobRequest[]): Promise<boolean> {
    if (requests.length === 0) return true;
    const jobs = requests.map(({ jobId, delayMs, workspaceId, deliveryId, slotAt }) => ({
      name: DELIVER_JOB,
      data: slotAt === undefined ? { workspaceId, deliveryId } : { workspaceId, deliveryId, slotAt },
      opts: deliveryJobOptions(jobId, delayMs),
    }));
    try {
      await within(this.queue.addBulk(jobs), ENQUEUE_WAIT_MS, 'Redis did not answer');
      return true;
    } catch (error) {
      this.logger.warn(`${requests.length} delivery jobs not queued now, the poll will: ${(error as Error).message}`);
      return false;
    }
  }
}
