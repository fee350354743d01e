// Puts delivery attempts on the webhook-delivery queue. Best effort and bounded in time: while Redis
// is down the deliveries stay pending in PostgreSQL and the worker's poll queues them again later.
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { enqueueWithin } from '@app/platform';
import { DELIVER_JOB, DeliveryJob, deliveryJobOptions, DeliveryJobRequest, DELIVER } from './jobs/delivery.job';

@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger('DeliveryQueue');

  constructor(@InjectQueue(DELIVER.queue) private readonly queue: Queue<DeliveryJob>) {}

  /** True when every job reached Redis; false leaves them to the poll. Never throws. */
  enqueue(requests: DeliveryJobRequest[]): Promise<boolean> {
    const jobs = requests.map(({ jobId, delayMs, workspaceId, deliveryId, slotAt }) => ({
      name: DELIVER_JOB,
      data: slotAt === undefined ? { workspaceId, deliveryId } : { workspaceId, deliveryId, slotAt },
      opts: deliveryJobOptions(jobId, delayMs),
    }));
    return enqueueWithin(this.queue, jobs, 'delivery jobs', this.logger);
  }
}
