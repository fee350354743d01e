// The worker's replays (docs/webhooks.md#replaying-a-window): one replay at a time per worker, taken under a lease,
// a page of happenings at a time. A page's deliveries are stored claimed, with the cursor past them, in one
// transaction (each happening once per replay), then sent in a lane of their own: at most REPLAY_IN_FLIGHT posts, none
// started while live work wants the process (a relay pass, live first attempts waiting or many out), within the
// address's rate limit. Retries of a replayed delivery follow the schedule on the delivery queue, as any other's.
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OutboxRelayService } from '@app/outbox';
import { Clock, CLOCK, SYSTEM_CLOCK } from '@app/platform';
import type { ClaimedAttempt, DeliveryKey } from './deliveries.types';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
import { DeliveryService } from './delivery.service';
import { FirstAttemptsService, PRECLAIM_START_WITHIN_MS } from './first-attempts.service';
import { firstClaim, HappeningDeliveries, RelayEndpoint } from './happening-deliveries';
import { ReplayRow, ReplaysRepository } from './replays.repository';

/** Happenings per page: each page's deliveries are stored in one transaction and sent before the next is read. */
const REPLAY_PAGE = 200;
/** A replay's posts out at once, per worker: the live lane (DIRECT_IN_FLIGHT) is its own. */
const REPLAY_IN_FLIGHT = 32;
/** Live first attempts out at once past which a replay starts no post (a live burst has the process). */
const LIVE_POSTING_YIELD = 64;
/** How often a replay waiting for live work to pass looks again. */
const LIVE_CHECK_MS = 5;
/** A worker's hold on a replay, renewed at each page; a worker that stops leaves it to another after this. */
const LEASE_MS = 120_000;
/** How often an idle worker looks for a replay to take. */
const TAKE_EVERY_MS = 1_000;

type Made = DeliveryKey & { claimed: ClaimedAttempt; claimedAt: number };

@Injectable()
export class ReplayRunnerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Replays');
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly replays: ReplaysRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly claims: DeliveryClaimsRepository,
    private readonly happenings: HappeningDeliveries,
    private readonly sender: DeliveryService,
    private readonly firstAttempts: FirstAttemptsService,
    private readonly relay: OutboxRelayService,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const replay = await this.replays.take(LEASE_MS).catch((error: Error) => {
        this.logger.warn(`replays not read: ${error.message}`);
        return null;
      });
      if (!replay) {
        await this.clock.sleep(TAKE_EVERY_MS);
        continue;
      }
      await this.replay(replay).catch((error: Error) => {
        this.logger.warn(`replay ${replay.id}: ${error.message}; it goes on once its lease has passed`);
      });
    }
  }

  /** Pages of the window until its end, a stop, or the address disabled or deleted (then it waits, held by none). */
  private async replay(replay: ReplayRow): Promise<void> {
    let cursor: string | null = replay.after_id;
    while (!this.stopped) {
      const endpoint = await this.replays.endpointOf(replay.workspace_id, replay.endpoint_id);
      if (!endpoint || endpoint.disabled_at) break;
      await this.liveFirst();
      const rows = await this.relay.relayedBetween(
        replay.workspace_id,
        replay.since,
        replay.until,
        cursor,
        REPLAY_PAGE,
      );
      if (rows.length === 0) return this.replays.finish(replay.workspace_id, replay.id);
      const made = await this.store({ ...replay, after_id: cursor }, rows, endpoint);
      if (!made) return; // another worker took it over
      cursor = rows[rows.length - 1].id;
      await this.replays.addDone(replay.workspace_id, replay.id, await this.send(made, endpoint));
    }
    await this.replays.release(replay.workspace_id, replay.id);
  }

  /** A page's deliveries, stored claimed with the cursor past the page; null when another worker took the replay. */
  private async store(
    replay: ReplayRow,
    rows: Awaited<ReturnType<OutboxRelayService['relayedBetween']>>,
    endpoint: RelayEndpoint,
  ): Promise<Made[] | null> {
    return this.dataSource
      .transaction(async (manager) => {
        const deliveries = await this.happenings.make(manager, rows, [endpoint], false);
        for (const d of deliveries) d.claimed = true;
        const claimedAt = this.clock.now();
        await this.deliveries.insert(manager, deliveries);
        if (!(await this.replays.advance(manager, replay, rows[rows.length - 1].id, deliveries.length, LEASE_MS))) {
          throw new ReplayTakenOver();
        }
        return deliveries.map((d) => ({
          workspaceId: d.workspaceId,
          deliveryId: d.id,
          claimedAt,
          claimed: firstClaim(d, endpoint),
        }));
      })
      .catch((error: Error) => {
        if (error instanceof ReplayTakenOver) return null;
        throw error;
      });
  }

  /**
   * Sends a page, REPLAY_IN_FLIGHT at a time, each post started only when live work leaves room and within the
   * address's rate limit; answers how many were sent or handed on. At a stop, the unsent are given back to the delivery
   * queue's poll.
   */
  private async send(made: Made[], endpoint: RelayEndpoint): Promise<number> {
    const gapMs = endpoint.rate_limit_per_second ? 1000 / endpoint.rate_limit_per_second : 0;
    let next = 0;
    let startAt = this.clock.now();
    const unsent: Made[] = [];
    const lane = async () => {
      while (next < made.length) {
        const one = made[next++];
        await this.liveFirst();
        if (this.stopped) {
          unsent.push(one);
          continue;
        }
        if (gapMs) {
          const wait = startAt - this.clock.now();
          startAt = Math.max(startAt, this.clock.now()) + gapMs;
          if (wait > 0) await this.clock.sleep(wait);
        }
        await this.attempt(one).catch((error: Error) =>
          this.logger.warn(`delivery ${one.deliveryId}: ${error.message}; it is tried again once its claim expires`),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(REPLAY_IN_FLIGHT, made.length) }, lane));
    if (unsent.length) await this.claims.releaseFirst(unsent).catch(() => undefined);
    return made.length;
  }

  /** Sent on the page's claim while it is fresh; one held longer is given back and claimed anew. */
  private async attempt({ workspaceId, deliveryId, claimed, claimedAt }: Made): Promise<unknown> {
    if (this.clock.now() - claimedAt <= PRECLAIM_START_WITHIN_MS)
      return this.sender.sendAndQueueNext(workspaceId, deliveryId, claimed);
    const released = await this.claims.releaseFirst([{ workspaceId, deliveryId }]);
    return released.length ? this.sender.attemptAndQueueNext(workspaceId, deliveryId) : null;
  }

  /** Waits while live work wants this process: a relay pass, or live first attempts waiting or many out. */
  private async liveFirst(): Promise<void> {
    while (!this.stopped && (this.relay.relaying || this.firstAttempts.busy(LIVE_POSTING_YIELD))) {
      await this.clock.sleep(LIVE_CHECK_MS);
    }
  }
}

class ReplayTakenOver extends Error {}
