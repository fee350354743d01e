// First attempts of new deliveries, started in this process as the relay commits them, without a round
// through the queue (a BullMQ job per delivery cost more CPU than the post itself, bench/RESULTS.md) and,
// for those the relay stored claimed, without a claim's round trip. Retries, and first attempts past the
// backlog or at shutdown, go on the webhook-delivery queue (DeliveryQueue).
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, CLOCK, SYSTEM_CLOCK } from '@app/platform';
import type { ClaimedAttempt, DeliveryKey } from './deliveries.types';
import { CLAIM_SECONDS, DeliveryClaimsRepository } from './delivery-claims.repository';
import { ATTEMPT_TIMEOUT_MS, AttemptOutcome, DeliveryQueue, DeliveryService, SLOT_HOLD_MS } from './delivery.service';
import { attemptJobId } from './jobs/delivery.job';

/**
 * First attempts the relay posts at once; past this many posts in flight they wait in this process. A place
 * is free once the post is answered: the settlement, written in a group with others, does not hold it.
 */
export const DIRECT_IN_FLIGHT = 1_000;
/** First attempts waiting in this process for a free place; past this many they go to the queue. */
export const DIRECT_BACKLOG = 50_000;
/**
 * First attempts the relay may store claimed for this process (in flight and waiting): a burst's worth, sent well
 * within a claim.
 */
export const PRECLAIMED_MAX = 20_000;
/**
 * A first attempt claimed at insert starts only this soon after its claim (leaving the attempt's time,
 * a rate-limit wait and a margin within CLAIM_SECONDS); one held longer is given back and claimed anew.
 */
export const PRECLAIM_START_WITHIN_MS = CLAIM_SECONDS * 1_000 - ATTEMPT_TIMEOUT_MS - SLOT_HOLD_MS - 5_000;

/**
 * A new delivery whose first attempt this process makes; `claimed` when the relay stored it claimed (at `claimedAt`,
 * the clock's ms since the epoch).
 */
export type FirstAttempt = DeliveryKey & { claimed?: ClaimedAttempt; claimedAt?: number };

@Injectable()
export class FirstAttemptsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Deliveries');
  // First attempts running (posting or settling), and how many of them are posting.
  private readonly inFlight = new Set<Promise<void>>();
  private posting = 0;
  // First attempts waiting for a place, oldest first (an array read from `head`, and their ids).
  private backlog: FirstAttempt[] = [];
  private head = 0;
  private readonly waiting = new Set<string>();
  private closing = false;

  constructor(
    private readonly sender: DeliveryService,
    private readonly claims: DeliveryClaimsRepository,
    private readonly queue: DeliveryQueue,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /**
   * The relay's follow-up for new deliveries: up to DIRECT_IN_FLIGHT at once, the rest waiting in this process for a
   * place, and only retries are queued. Past DIRECT_BACKLOG waiting, or while shutting down, they are queued instead.
   * Nothing is lost either way: a delivery is durable before this runs, and one that is due, unclaimed and not held
   * here is queued again by the worker's poll (another worker's poll may queue one held here: the claim lets only one
   * of them send it).
   */
  async start(keys: FirstAttempt[]): Promise<void> {
    const queued: FirstAttempt[] = [];
    for (const key of keys) {
      if (this.closing || this.waiting.size >= DIRECT_BACKLOG) queued.push(key);
      else if (!this.waiting.has(key.deliveryId)) {
        this.waiting.add(key.deliveryId);
        this.backlog.push(key);
      }
    }
    this.startWaiting();
    await this.queueFirst(queued);
  }

  /** How many new deliveries the relay may store with their first attempt claimed for this process. */
  preclaimRoom(): number {
    return this.closing ? 0 : Math.max(0, PRECLAIMED_MAX - this.inFlight.size - (this.backlog.length - this.head));
  }

  /** The clock's time, which a first attempt's `claimedAt` is read on. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Whether live first attempts want this process now: some wait for a place, or at least `posting` are out (a
   * replay starts no post of its own meanwhile, docs/webhooks.md#replaying-a-window).
   */
  busy(posting: number): boolean {
    return this.head < this.backlog.length || this.posting >= posting;
  }

  /** Whether the delivery's first attempt waits in this process (the poll leaves it alone). */
  holds(deliveryId: string): boolean {
    return this.waiting.has(deliveryId);
  }

  /** Queues first attempts; the claimed ones are given back first, so the job can claim them. */
  private async queueFirst(attempts: FirstAttempt[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.claims.releaseFirst(attempts.filter((a) => a.claimed)).catch((error: Error) => {
      this.logger.warn(`first attempts not given back (${error.message}); they are sent once their claims expire`);
    });
    await this.queue.enqueue(
      attempts.map(({ workspaceId, deliveryId }) => ({ workspaceId, deliveryId, jobId: attemptJobId(deliveryId, 0) })),
    );
  }

  private startWaiting(): void {
    while (!this.closing && this.posting < DIRECT_IN_FLIGHT && this.head < this.backlog.length) {
      const first = this.backlog[this.head++];
      const { deliveryId } = first;
      this.waiting.delete(deliveryId);
      this.posting++;
      let posted = false;
      const answered = () => {
        if (posted) return;
        posted = true;
        this.posting--;
        this.startWaiting();
      };
      const running: Promise<void> = this.firstAttempt(first, answered)
        .then(
          () => undefined,
          (error: Error) =>
            this.logger.warn(
              `delivery ${deliveryId}: ${error.message}; it is tried again once its claim, if it got one, has expired`,
            ),
        )
        .finally(() => {
          this.inFlight.delete(running);
          answered();
        });
      this.inFlight.add(running);
    }
    if (this.head === this.backlog.length) {
      this.backlog = [];
      this.head = 0;
    } else if (this.head > 4_096 && this.head * 2 > this.backlog.length) {
      this.backlog = this.backlog.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * A first attempt: sent on the relay's claim while that is fresh; one held too long is given back and claimed anew.
   */
  private async firstAttempt(
    { workspaceId, deliveryId, claimed, claimedAt }: FirstAttempt,
    answered: () => void,
  ): Promise<AttemptOutcome> {
    if (!claimed) return this.sender.attemptAndQueueNext(workspaceId, deliveryId);
    if (this.clock.now() - claimedAt! <= PRECLAIM_START_WITHIN_MS)
      return this.sender.sendAndQueueNext(workspaceId, deliveryId, claimed, answered);
    const released = await this.claims.releaseFirst([{ workspaceId, deliveryId }]);
    return released.length ? this.sender.attemptAndQueueNext(workspaceId, deliveryId) : 'claim-lost';
  }

  /**
   * Shutdown: no new direct attempts, the waiting ones are queued; the ones out finish (each is bounded by
   * ATTEMPT_TIMEOUT_MS).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    const left = this.backlog.slice(this.head);
    this.backlog = [];
    this.head = 0;
    this.waiting.clear();
    await this.queueFirst(left);
    await Promise.allSettled([...this.inFlight]);
  }
}
