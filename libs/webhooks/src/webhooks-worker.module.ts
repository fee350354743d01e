// The worker's part of outgoing webhooks: the relay handler, the delivery processor, the poll that
// queues again what a lost job or a Redis outage left, the sweeps (due deliveries, retention) and the replays.
import { Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DAY_MS, DuePoll, retainedSince, SweepRegistry } from '@app/platform';
import { OutboxRelayService } from '@app/outbox';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryQueue, DeliveryService } from './delivery.service';
import { FirstAttemptsService } from './first-attempts.service';
import { EndpointHealthService } from './endpoint-health.service';
import { EndpointRateLimit } from './endpoint-rate-limit';
import { attemptJobId } from './jobs/delivery.job';
import { DeliveryProcessor } from './jobs/delivery.processor';
import { closeSafeAgents } from './sending';
import { WebhookRelayService } from './happening-deliveries';
import { ReplayRunnerService } from './replay-runner.service';
import { WebhooksModule } from './webhooks.module';

/** Webhook deliveries and their attempts. */
const DELIVERIES_KEPT_MS = 30 * DAY_MS;

@Module({
  imports: [WebhooksModule],
  providers: [
    WebhookRelayService,
    DeliveryService,
    FirstAttemptsService,
    DeliveryProcessor,
    EndpointHealthService,
    EndpointRateLimit,
    ReplayRunnerService,
  ],
})
export class WebhooksWorkerModule implements OnModuleInit, OnApplicationShutdown {
  // Equal job ids make queueing again a no-op for jobs still queued; first attempts waiting in this
  // process for a place (FirstAttemptsService.holds) are not queued.
  private readonly poll = new DuePoll('WebhooksWorker', {
    due: async (graceMs, batch) =>
      (await this.deliveries.dueUnclaimed(graceMs, batch)).filter((d) => !this.firstAttempts.holds(d.id)),
    enqueue: (due) =>
      this.queue.enqueue(
        due.map((d) => ({ workspaceId: d.workspace_id, deliveryId: d.id, jobId: attemptJobId(d.id, d.attempts) })),
      ),
  });

  constructor(
    private readonly relay: OutboxRelayService,
    private readonly relayHandler: WebhookRelayService,
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly sweeps: SweepRegistry,
    private readonly health: EndpointHealthService,
    private readonly firstAttempts: FirstAttemptsService,
  ) {}

  onModuleInit(): void {
    this.relay.register(this.relayHandler);
    this.sweeps.register('webhook-deliveries-due', () => this.queueDue());
    this.sweeps.register('webhook-deliveries-retention', () =>
      this.deliveries.deleteCreatedBefore(retainedSince(DELIVERIES_KEPT_MS)),
    );
    this.sweeps.register('webhook-endpoint-health-retention', () => this.health.deleteOldCounts());
    this.poll.start();
  }

  /** Queues every due, unclaimed delivery again. */
  queueDue(): Promise<number> {
    return this.poll.run();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poll.stop();
    // In-flight posts finish first (close is graceful); a later post in this process opens a new agent.
    await closeSafeAgents();
  }
}
