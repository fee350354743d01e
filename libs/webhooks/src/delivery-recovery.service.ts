// Recover and replay (docs/webhooks.md#health-disabling-and-recovery).
// recoverDeliveries: every failed delivery of an address since a time is sent again (as its next
// attempt, same body bytes), in the order they were made, at a bounded rate. replayEvents: the
// happenings of a window are sent again as new deliveries, read from the outbox while it keeps them.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { OUTBOX_KEPT_MS, OUTBOX_RETENTION_DAYS, OutboxRelayService } from '@app/outbox';
import { Refusal, retainedSince } from '@app/platform';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryQueue } from './delivery.service';
import { EndpointsService } from './endpoints.service';
import { HappeningDeliveries } from './happening-deliveries';
import { attemptJobId } from './jobs/delivery.job';

/** Recovered and replayed deliveries go out at most this many per second (or the address's own lower limit). */
export const RECOVERY_PER_SECOND = 10;
/** Jobs are queued now for what is due within this long; the worker's poll queues the later ones when due. */
const QUEUE_AHEAD_MS = 10 * 60_000;
const REPLAY_PAGE = 500;

@Injectable()
export class DeliveryRecoveryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly endpoints: EndpointsService,
    private readonly deliveries: DeliveriesRepository,
    private readonly happenings: HappeningDeliveries,
    private readonly outbox: OutboxRelayService,
    private readonly queue: DeliveryQueue,
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

  /** Sends the happenings of [since, until) again to the address as new deliveries; answers how many were queued. */
  async replay(workspaceId: string, endpointId: string, since: Date, until: Date): Promise<number> {
    const endpoint = await this.endpoints.enabledEndpoint(workspaceId, endpointId);
    checkedTime(since, 'since');
    checkedTime(until, 'until');
    const kept = retainedSince(OUTBOX_KEPT_MS);
    if (since < kept) {
      throw new Refusal(
        'invalid_field',
        `Happenings are kept ${OUTBOX_RETENTION_DAYS} days: choose a since after ${kept.toISOString()}.`,
        { field: 'since' },
      );
    }
    if (until <= since) throw new Refusal('invalid_field', 'until must be later than since.', { field: 'until' });

    const everyMs = paceMs(endpoint.rate_limit_per_second);
    let queued = 0;
    let afterId: string | null = null;
    for (;;) {
      const rows = await this.outbox.relayedBetween(workspaceId, since, until, afterId, REPLAY_PAGE);
      if (rows.length === 0) break;
      afterId = rows[rows.length - 1].id;
      const made = await this.dataSource.transaction(async (manager) => {
        const deliveries = (await this.happenings.make(manager, rows, [endpoint], false)).map((d, i) => ({
          ...d,
          dueInMs: (queued + i) * everyMs,
        }));
        await this.deliveries.insert(manager, deliveries);
        return deliveries;
      });
      await this.queueDue(
        workspaceId,
        made.map((d) => ({ id: d.id, attempts: 0, dueInMs: d.dueInMs })),
      );
      queued += made.length;
      if (rows.length < REPLAY_PAGE) break;
    }
    return queued;
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
