// interface.md "Delivery rules": claim, send the stored bytes signed, record the answer, schedule the
// next attempt (1, 5, 30, 120, 720 minutes) or mark the delivery failed after the sixth. Beyond the
// spec (issue 19): the address's rate limit, its health, and 410 Gone disabling it. The attempts it
// does not send at once go on the webhook-delivery queue (DeliveryQueue).
import { InjectQueue } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig, CONFIG, enqueueWithin, keptIn } from '@app/platform';
import { CLAIM_SECONDS, ClaimedAttempt, DeliveriesRepository, DeliveryKey } from './deliveries.repository';
import { nextAttemptDelayMs, openSecret } from './domain';
import { EndpointHealthService } from './endpoint-health.service';
import { EndpointRateLimit, RATE_WINDOW_MS, Slot } from './endpoint-rate-limit';
import {
  DELIVER,
  DELIVER_JOB,
  DeliveryJob,
  deliveryJobOptions,
  DeliveryJobRequest,
  attemptJobId,
} from './jobs/delivery.job';
import { postSigned } from './sending';

/** One attempt gets ten seconds (interface.md "Limits": Attempt time for an outgoing webhook). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type AttemptOutcome = 'not-claimed' | 'succeeded' | 'failed' | 'scheduled' | 'deferred' | 'claim-lost';

/** A rate-limit slot this near is waited for with the claim held; a later one gives the claim back. */
export const SLOT_HOLD_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * performance.now()).
 */
export type FirstAttempt = DeliveryKey & { claimed?: ClaimedAttempt; claimedAt?: number };

/**
 * Puts delivery attempts on the webhook-delivery queue. Best effort and bounded in time: while Redis
 * is down the deliveries stay pending in PostgreSQL and the worker's poll queues them again later.
 */
@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger('DeliveryQueue');

  constructor(@InjectQueue(DELIVER.queue) private readonly queue: Queue<DeliveryJob>) {}

  /** True when every job reached Redis; false leaves them to the poll. Never throws. */
  enqueue(requests: DeliveryJobRequest[]): Promise<boolean> {
    const jobs = requests.map(({ jobId, delayMs, workspaceId, deliveryId, slotAt }) => ({
      name: DELIVER_JOB,
      data: DELIVER.payload(slotAt === undefined ? { workspaceId, deliveryId } : { workspaceId, deliveryId, slotAt }),
      opts: deliveryJobOptions(jobId, delayMs),
    }));
    return enqueueWithin(this.queue, jobs, 'delivery jobs', this.logger);
  }
}

@Injectable()
export class DeliveryService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Deliveries');
  // Opened secrets by sealed value: the AES-GCM open showed in the benchmark's profile at every attempt.
  private readonly secrets = new Map<string, string>();
  // First attempts running (posting or settling), and how many of them are posting.
  private readonly inFlight = new Set<Promise<void>>();
  private posting = 0;
  // First attempts waiting for a place, oldest first (an array read from `head`, and their ids).
  private backlog: FirstAttempt[] = [];
  private head = 0;
  private readonly waiting = new Set<string>();
  private closing = false;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly health: EndpointHealthService,
    private readonly rateLimit: EndpointRateLimit,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The relay's follow-up for new deliveries: their first attempts start here, without a round
   * through the queue (a BullMQ job per delivery cost more CPU than the post itself, bench/RESULTS.md)
   * and, for those the relay stored claimed (FirstAttempt.claimed), without a claim's round trip:
   * up to DIRECT_IN_FLIGHT at once, the rest waiting in this process for a place, and only retries are
   * queued. Past DIRECT_BACKLOG waiting, or while shutting down, they are queued instead. Nothing is
   * lost either way: a delivery is durable before this runs, and one that is due, unclaimed and not
   * held here is queued again by the worker's poll (another worker's poll may queue one held here: the
   * claim lets only one of them send it).
   */
  async startFirstAttempts(keys: FirstAttempt[]): Promise<void> {
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

  /** Queues first attempts; the claimed ones are given back first, so the job can claim them. */
  private async queueFirst(attempts: FirstAttempt[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.deliveries.releaseFirst(attempts.filter((a) => a.claimed)).catch((error: Error) => {
      this.logger.warn(`first attempts not given back (${error.message}); they are sent once their claims expire`);
    });
    await this.queue.enqueue(
      attempts.map(({ workspaceId, deliveryId }) => ({ workspaceId, deliveryId, jobId: attemptJobId(deliveryId, 0) })),
    );
  }

  /** Whether the delivery's first attempt waits in this process (the poll leaves it alone). */
  holds(deliveryId: string): boolean {
    return this.waiting.has(deliveryId);
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

  /** One attempt; a retry it schedules goes on the queue. Used by the queue's processor too. */
  async attemptAndQueueNext(workspaceId: string, deliveryId: string, slotAt?: number): Promise<AttemptOutcome> {
    return this.queueNext(await this.attempt(workspaceId, deliveryId, slotAt));
  }

  private async queueNext({
    outcome,
    next,
  }: {
    outcome: AttemptOutcome;
    next?: DeliveryJobRequest;
  }): Promise<AttemptOutcome> {
    if (next) await this.queue.enqueue([next]);
    return outcome;
  }

  /**
   * A first attempt: sent on the relay's claim while that is fresh; one held too long is given back and claimed anew.
   */
  private async firstAttempt(
    { workspaceId, deliveryId, claimed, claimedAt }: FirstAttempt,
    answered: () => void,
  ): Promise<AttemptOutcome> {
    if (!claimed) return this.attemptAndQueueNext(workspaceId, deliveryId);
    if (performance.now() - claimedAt! <= PRECLAIM_START_WITHIN_MS)
      return this.queueNext(await this.send(workspaceId, deliveryId, claimed, undefined, answered));
    const released = await this.deliveries.releaseFirst([{ workspaceId, deliveryId }]);
    return released.length ? this.attemptAndQueueNext(workspaceId, deliveryId) : 'claim-lost';
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

  /**
   * Makes one attempt when the delivery is claimable; returns what happened and the job for the next
   * attempt. `slotAt` is a rate-limit slot reserved for this delivery earlier (see waitForSlot).
   */
  async attempt(
    workspaceId: string,
    deliveryId: string,
    slotAt?: number,
  ): Promise<{ outcome: AttemptOutcome; next?: DeliveryJobRequest }> {
    const claimed = await this.deliveries.claim(workspaceId, deliveryId);
    if (!claimed) return { outcome: 'not-claimed' };
    if (claimed.tookOver)
      this.logger.warn(
        `delivery ${deliveryId}: attempt ${claimed.number - 1} was interrupted; sending attempt ${claimed.number}`,
      );
    return this.send(workspaceId, deliveryId, claimed, slotAt);
  }

  /**
   * Sends a claimed attempt (within the address's rate limit), records the answer and says what comes next; `answered`
   * is told once the post is.
   */
  private async send(
    workspaceId: string,
    deliveryId: string,
    claimed: ClaimedAttempt,
    slotAt?: number,
    answered?: () => void,
  ): Promise<{ outcome: AttemptOutcome; next?: DeliveryJobRequest }> {
    if (claimed.rateLimitPerSecond) {
      const deferred = await this.waitForSlot(workspaceId, deliveryId, claimed, slotAt);
      if (deferred) return deferred;
    }
    const startedAt = new Date();
    const secrets = {
      secret: this.secretOf(claimed.secretSealed),
      previous: claimed.previousSecretSealed ? this.secretOf(claimed.previousSecretSealed) : null,
    };
    const answer = await postSigned(claimed.url, { id: deliveryId, type: claimed.type, body: claimed.body }, secrets, {
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      allowPrivate: this.config.allowPrivateTargets,
    });
    answered?.();
    const gone = answer.status === 410;
    if (gone) await this.health.gone(workspaceId, claimed.endpointId);
    this.health.record(workspaceId, claimed.endpointId, answer.ok);
    const settled = await this.deliveries.settle(workspaceId, deliveryId, {
      number: claimed.number,
      startedAt,
      ok: answer.ok,
      durationMs: answer.durationMs,
      status: answer.status,
      bodyExcerpt: answer.bodyExcerpt,
      error: answer.error ?? (answer.ok ? undefined : describeStatus(answer.status)),
      // 410 Gone: the address is disabled, so no retry is scheduled; the delivery is failed, to be recovered.
      nextDelayMs: answer.ok || gone ? null : nextAttemptDelayMs(claimed.number, this.config.retryUnitMs),
    });
    if (!settled) return { outcome: 'claim-lost' };
    if (settled.state !== 'pending') return { outcome: settled.state as 'succeeded' | 'failed' };
    return {
      outcome: 'scheduled',
      next: { workspaceId, deliveryId, jobId: attemptJobId(deliveryId, claimed.number), delayMs: settled.dueInMs },
    };
  }

  /**
   * The address's rate limit: waits for a slot that is near, or gives the claim back and queues the
   * attempt for its slot (the attempt is not counted, nothing is lost). A slot reserved earlier is used
   * unless it has long passed (the job ran late): then a fresh one is reserved.
   */
  private async waitForSlot(
    workspaceId: string,
    deliveryId: string,
    claimed: ClaimedAttempt,
    slotAt?: number,
  ): Promise<{ outcome: AttemptOutcome; next?: DeliveryJobRequest } | null> {
    let slot: Slot;
    if (slotAt !== undefined && slotAt > Date.now() - RATE_WINDOW_MS) {
      slot = { at: slotAt, waitMs: Math.max(0, slotAt - Date.now()) };
    } else {
      try {
        slot = await this.rateLimit.reserve(workspaceId, claimed.endpointId, claimed.rateLimitPerSecond!);
      } catch (error) {
        this.logger.warn(
          `delivery ${deliveryId}: rate limit unknown (${(error as Error).message}); tried again in a second`,
        );
        slot = { at: Date.now() + RATE_WINDOW_MS, waitMs: RATE_WINDOW_MS + SLOT_HOLD_MS };
      }
    }
    if (slot.waitMs <= SLOT_HOLD_MS) {
      if (slot.waitMs > 0) await sleep(slot.waitMs);
      await this.admitted(workspaceId, claimed);
      return null;
    }
    if (!(await this.deliveries.release(workspaceId, deliveryId, claimed.number, slot.waitMs)))
      return { outcome: 'claim-lost' };
    return {
      outcome: 'deferred',
      next: {
        workspaceId,
        deliveryId,
        slotAt: slot.at,
        jobId: `${attemptJobId(deliveryId, claimed.number - 1)}-at-${slot.at}`,
        delayMs: slot.waitMs,
      },
    };
  }

  /** Waits until a post may start without any second holding more than the limit (timers fire late). */
  private async admitted(workspaceId: string, claimed: ClaimedAttempt): Promise<void> {
    // Reserved slots are already spaced: a wait here is a late timer's few ms, so a few tries keep well within the
    // claim.
    for (let tries = 0; tries < 5; tries++) {
      const waitMs = await this.rateLimit
        .admit(workspaceId, claimed.endpointId, claimed.rateLimitPerSecond!)
        .catch(() => 0);
      if (waitMs <= 0) return;
      await sleep(waitMs);
    }
  }

  private secretOf(sealed: string): string {
    return keptIn(this.secrets, sealed, (s) => openSecret(this.config.appSecret, s));
  }
}

function describeStatus(status: number | undefined): string | undefined {
  if (status === undefined) return undefined;
  if (status >= 300 && status < 400) return `Answered ${status}: redirects are not followed and count as a failure.`;
  return `Answered ${status}: only a 2xx answer is a success.`;
}
