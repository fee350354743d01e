// The worker's side of the webhook-delivery queue: one job is one attempt (delivery.service.ts decides
// whether it may go out). The poll and the sweep queue again what a lost job or a Redis outage left.
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { AttemptOutcome, DeliveryService } from '../delivery.service';
import { DELIVER } from './delivery.job';

/** Attempts in flight per worker process; most of an attempt is waiting on the receiver. */
const DELIVERY_CONCURRENCY = 100;

@Processor(DELIVER.queue, { concurrency: DELIVERY_CONCURRENCY })
export class DeliveryProcessor extends WorkerHost {
  constructor(private readonly deliveries: DeliveryService) {
    super();
  }

  /**
   * A newer payload is put back for a newer worker; an unreadable one fails without retry (removed, as
   * every delivery job is once failed): its delivery was never claimed, so it stays pending and due in
   * PostgreSQL and the poll queues it again (docs/architecture.md#job-payloads).
   */
  async process(job: Job, token?: string): Promise<AttemptOutcome> {
    const { workspaceId, deliveryId, slotAt } = await DELIVER.take(job, token);
    return this.deliveries.attemptAndQueueNext(workspaceId, deliveryId, slotAt);
  }
}
