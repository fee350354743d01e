// The worker's side of the webhook-delivery queue: one job is one attempt (delivery.service.ts decides
// whether it may go out). The poll and the sweep queue again what a lost job or a Redis outage left.
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { AttemptOutcome, DeliveryService } from '../delivery.service';
import { DeliveryJob, DELIVER } from './delivery.job';

/** Attempts in flight per worker process; most of an attempt is waiting on the receiver. */
const DELIVERY_CONCURRENCY = 100;

@Processor(DELIVER.queue, { concurrency: DELIVERY_CONCURRENCY })
export class DeliveryProcessor extends WorkerHost {
  constructor(private readonly deliveries: DeliveryService) {
    super();
  }

  process(job: Job<DeliveryJob>): Promise<AttemptOutcome> {
    return this.deliveries.attemptAndQueueNext(job.data.workspaceId, job.data.deliveryId, job.data.slotAt);
  }
}
