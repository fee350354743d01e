// Recover and replay (docs/webhooks.md#health-disabling-and-recovery).
// recoverDeliveries: every failed delivery of an address since a time is sent again (as its next
// attempt, same body bytes), in the order they were made, at a bounded rate. replayEvents: the
// happenings of a window are sent again as new deliveries, read from the outbox while it keeps them
// (OUTBOX_RETENTION_DAYS), by the worker's replays (replay-runner.service.ts).
import { Inject, Injectable } from '@nestjs/common';
import { outboxKeptMs, OutboxRelayService } from '@app/outbox';
import { AppConfig, CONFIG, newId, Refusal, retainedSince } from '@app/platform';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryQueue } from './delivery.service';
import { EndpointsService } from './endpoints.service';
import { attemptJobId } from './jobs/delivery.job';
import { ReplaysRepository } from './replays.repository';

/** Recovered deliveries go out at most this many per second (or the address's own lower limit). */
export const RECOVERY_PER_SECOND = 10;
/** Jobs are queued now for what is due within this long; the worker's poll queues the later ones when due. */
const QUEUE_AHEAD_MS = 10 * 60_000;

@Injectable()
export class DeliveryRecoveryService {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly deliveries: DeliveriesRepository,
    private readonly replays: ReplaysRepository,
    private readonly outbox: OutboxRelayService,
    private readonly queue: DeliveryQueue,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sends every failed delivery of the address made since `since` again; answers how many were queued. */
  async recover(workspaceId: string, endpointId: string, since: Date): Promise<number> {
    const endpoint = await this.endpoints.enabledEndpoint(workspaceId, endpointId);
    const due = await this.deliveries.makeFailedDue(
      workspaceId,
      endpointId,
      checkedTime(since, 'since'),
      paceMs(endpoint.rate_limit_per_second),
    );
    await this.queueDue(
      workspaceId,
      due.map((d) => ({ id: d.id, attempts: d.attempts, dueInMs: d.due_in_ms })),
    );
    return due.length;
  }

  /**
   * Sends the happenings of [since, until) again to the address as new deliveries, by the worker in a lane after live
   * work (replay-runner.service.ts, docs/webhooks.md#replaying-a-window); answers how many it makes.
   */
  async replay(workspaceId: string, endpointId: string, since: Date, until: Date): Promise<number> {
    const endpoint = await this.endpoints.enabledEndpoint(workspaceId, endpointId);
    checkedTime(since, 'since');
    checkedTime(until, 'until');
    const kept = retainedSince(outboxKeptMs(this.config));
    if (since < kept) {
      throw new Refusal(
        'invalid_field',
        `Happenings are kept ${this.config.outboxRetentionDays} days (OUTBOX_RETENTION_DAYS): choose a since after ` +
          `${kept.toISOString()}.`,
        { field: 'since' },
      );
    }
    if (until <= since) throw new Refusal('invalid_field', 'until must be later than since.', { field: 'until' });
    const total = await this.outbox.countRelayedBetween(workspaceId, since, until, endpoint.triggers);
    await this.replays.create({
      workspace_id: workspaceId,
      id: newId('rpl'),
      endpoint_id: endpointId,
      since,
      until,
      total,
    });
    return total;
  }

  private async queueDue(
    workspaceId: string,
    due: Array<{ id: string; attempts: number; dueInMs: number }>,
  ): Promise<void> {
    await this.queue.enqueue(
      due
        .filter((d) => d.dueInMs <= QUEUE_AHEAD_MS)
        .map((d) => ({ workspaceId, deliveryId: d.id, jobId: attemptJobId(d.id, d.attempts), delayMs: d.dueInMs })),
    );
  }
}

function paceMs(rateLimitPerSecond: number | null): number {
  return 1000 / Math.min(RECOVERY_PER_SECOND, rateLimitPerSecond ?? RECOVERY_PER_SECOND);
}

function checkedTime(value: Date, field: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new Refusal('invalid_field', `${field} must be an ISO 8601 date-time.`, { field });
  }
  return value;
}
