// One attempt (docs/webhooks.md#delivery-retries-and-the-log): claim, send the stored bytes signed, record
// the answer, schedule the next attempt (1, 5, 30, 120, 720 minutes) or mark the delivery failed after the
// sixth; within the address's rate limit, telling its health, and disabling it on 410 Gone
// (docs/webhooks.md#health-disabling-and-recovery). The attempts it does not send at once go on the
// webhook-delivery queue (DeliveryQueue); the relay's first attempts start in first-attempts.service.ts.
// Its waits and times are the injected clock's.
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig, Clock, CLOCK, CONFIG, enqueueWithin, keptIn, SYSTEM_CLOCK } from '@app/platform';
import type { ClaimedAttempt } from './deliveries.types';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
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

/** One attempt gets ten seconds (docs/webhooks.md#delivery-retries-and-the-log). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type AttemptOutcome = 'not-claimed' | 'succeeded' | 'failed' | 'scheduled' | 'deferred' | 'claim-lost';

/** A rate-limit slot this near is waited for with the claim held; a later one gives the claim back. */
export const SLOT_HOLD_MS = 2_000;

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
export class DeliveryService {
  private readonly logger = new Logger('Deliveries');
  // Opened secrets by sealed value: the AES-GCM open showed in the benchmark's profile at every attempt.
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly claims: DeliveryClaimsRepository,
    private readonly queue: DeliveryQueue,
    private readonly health: EndpointHealthService,
    private readonly rateLimit: EndpointRateLimit,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

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

  /** Sends an attempt claimed already (the relay's first attempts); a retry it schedules goes on the queue. */
  async sendAndQueueNext(
    workspaceId: string,
    deliveryId: string,
    claimed: ClaimedAttempt,
    answered?: () => void,
  ): Promise<AttemptOutcome> {
    return this.queueNext(await this.send(workspaceId, deliveryId, claimed, undefined, answered));
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
    const claimed = await this.claims.claim(workspaceId, deliveryId);
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
    const startedAt = new Date(this.clock.now());
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
    const settled = await this.claims.settle(workspaceId, deliveryId, {
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
    if (slotAt !== undefined && slotAt > this.clock.now() - RATE_WINDOW_MS) {
      slot = { at: slotAt, waitMs: Math.max(0, slotAt - this.clock.now()) };
    } else {
      try {
        slot = await this.rateLimit.reserve(workspaceId, claimed.endpointId, claimed.rateLimitPerSecond!);
      } catch (error) {
        this.logger.warn(
          `delivery ${deliveryId}: rate limit unknown (${(error as Error).message}); tried again in a second`,
        );
        slot = { at: this.clock.now() + RATE_WINDOW_MS, waitMs: RATE_WINDOW_MS + SLOT_HOLD_MS };
      }
    }
    if (slot.waitMs <= SLOT_HOLD_MS) {
      if (slot.waitMs > 0) await this.clock.sleep(slot.waitMs);
      await this.admitted(workspaceId, claimed);
      return null;
    }
    if (!(await this.claims.release(workspaceId, deliveryId, claimed.number, slot.waitMs)))
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
      await this.clock.sleep(waitMs);
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
