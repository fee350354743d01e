// The worker's side of endpoint health (domain/endpoint-health.ts): attempt outcomes are tallied in
// memory and added to the database every 2 seconds (and at shutdown), so a busy address does not turn
// its row into a point every settlement contends on. A crash loses at most those 2 seconds of counts.
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig, Clock, CLOCK, ClockTimer, CONFIG, DAY_MS, retainedSince, SYSTEM_CLOCK } from '@app/platform';
import { failingReason, failureWindowMs, goneReason, HealthTallies } from './domain';
import { EndpointsRepository } from './endpoints.repository';

/** Attempt counts: the success rate reads the last day; an hour of margin. */
const HEALTH_KEPT_MS = DAY_MS + 3600 * 1000;

export const HEALTH_FLUSH_MS = 2_000;

@Injectable()
export class EndpointHealthService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('EndpointHealth');
  private readonly tallies = new HealthTallies();
  private timer: ClockTimer | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly endpoints: EndpointsRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  onModuleInit(): void {
    this.timer = this.clock.setInterval(() => void this.flush(), HEALTH_FLUSH_MS).unref();
  }

  record(workspaceId: string, endpointId: string, ok: boolean, at = new Date(this.clock.now())): void {
    this.tallies.record(workspaceId, endpointId, ok, at);
  }

  /** Standard Webhooks: a receiver answering 410 Gone asks for no more deliveries; disabled at once. */
  async gone(workspaceId: string, endpointId: string): Promise<void> {
    if (await this.endpoints.disable(workspaceId, endpointId, goneReason())) {
      this.logger.warn(`webhook address ${endpointId} answered 410 Gone and is disabled`);
    }
  }

  flush(): Promise<void> {
    this.flushing ??= (async () => {
      const drained = this.tallies.drain();
      try {
        const days = this.config.webhookDisableAfterDays;
        const disabled = await this.endpoints.recordHealth(
          drained,
          new Date(this.clock.now()),
          failureWindowMs(days, this.config.retryUnitMs),
          (since) => failingReason(days, since),
        );
        for (const d of disabled)
          this.logger.warn(`webhook address ${d.endpointId}: every delivery failed for ${days} days; it is disabled`);
      } catch (error) {
        this.tallies.restore(drained);
        this.logger.warn(`endpoint health not saved now, kept for the next flush: ${(error as Error).message}`);
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** The minute sweep: counts older than the success rate's day (and an hour's margin) go. */
  deleteOldCounts(): Promise<number> {
    return this.endpoints.deleteHealthBefore(retainedSince(HEALTH_KEPT_MS, this.clock.now()));
  }

  async onApplicationShutdown(): Promise<void> {
    this.timer?.cancel();
    await this.flushing;
    await this.flush();
  }
}
