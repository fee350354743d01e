// interface.md "Delivery rules": claim, send the stored bytes signed, record the answer, schedule the
// next attempt (1, 5, 30, 120, 720 minutes) or mark the delivery failed after the sixth.
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig, CONFIG } from '@app/core';
import { DeliveriesRepository, DeliveryKey } from './deliveries.repository';
import { DeliveryQueue } from './delivery-queue';
import { nextAttemptDelayMs, openSecret, signBody } from './domain';
import { DeliveryJobRequest, attemptJobId } from './jobs/delivery.job';
import { safePost } from './sending';

/** One attempt gets ten seconds (interface.md "Limits": Attempt time for an outgoing webhook). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type AttemptOutcome = 'not-claimed' | 'succeeded' | 'failed' | 'scheduled' | 'claim-lost';

/** First attempts the relay sends itself at once; past this many in flight they wait in the queue. */
export const DIRECT_IN_FLIGHT = 1_000;

@Injectable()
export class DeliveryService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Deliveries');
  // Opened secrets by sealed value: the AES-GCM open showed in the benchmark's profile at every attempt.
  private readonly secrets = new Map<string, string>();
  private readonly inFlight = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The relay's follow-up for new deliveries: their first attempts start here and now, without a
   * round through the queue, and only retries are queued. Past DIRECT_IN_FLIGHT, or while shutting
   * down, they are queued instead. Nothing is lost either way: a delivery is durable before this runs,
   * and one that is due, unclaimed and has no job is queued again by the worker's poll.
   */
  async startFirstAttempts(keys: DeliveryKey[]): Promise<void> {
    const room = this.closing ? 0 : Math.max(0, DIRECT_IN_FLIGHT - this.inFlight.size);
    for (const { workspaceId, deliveryId } of keys.slice(0, room)) {
      const running: Promise<void> = this.attemptAndQueueNext(workspaceId, deliveryId)
        .then(
          () => undefined,
          (error: Error) => this.logger.warn(`delivery ${deliveryId}: ${error.message}; it is tried again once its claim, if it got one, has expired`),
        )
        .finally(() => this.inFlight.delete(running));
      this.inFlight.add(running);
    }
    await this.queue.enqueue(keys.slice(room).map((k) => ({ ...k, jobId: attemptJobId(k.deliveryId, 0) })));
  }

  /** One attempt; a retry it schedules goes on the queue. Used by the queue's processor too. */
  async attemptAndQueueNext(workspaceId: string, deliveryId: string): Promise<AttemptOutcome> {
    const { outcome, next } = await this.attempt(workspaceId, deliveryId);
    if (next) await this.queue.enqueue([next]);
    return outcome;
  }

  /** Shutdown: no new direct attempts; the ones out finish (each is bounded by ATTEMPT_TIMEOUT_MS). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Makes one attempt when the delivery is claimable; returns what happened and the job for the next attempt. */
  async attempt(workspaceId: string, deliveryId: string): Promise<{ outcome: AttemptOutcome; next?: DeliveryJobRequest }> {
    const claimed = await this.deliveries.claim(workspaceId, deliveryId);
    if (!claimed) return { outcome: 'not-claimed' };
    if (claimed.tookOver) this.logger.warn(`delivery ${deliveryId}: attempt ${claimed.number - 1} was interrupted; sending attempt ${claimed.number}`);

    const startedAt = new Date();
    const answer = await safePost(
      claimed.url,
      claimed.body,
      {
        'X-Service-Delivery': deliveryId,
        'X-Service-Event': claimed.type,
        'X-Service-Signature': signBody(this.secretOf(claimed.secretSealed), claimed.body),
      },
      { timeoutMs: ATTEMPT_TIMEOUT_MS, allowPrivate: this.config.allowPrivateTargets },
    );
    const settled = await this.deliveries.settle(workspaceId, deliveryId, {
      number: claimed.number,
      startedAt,
      ok: answer.ok,
      durationMs: answer.durationMs,
      status: answer.status,
      bodyExcerpt: answer.bodyExcerpt,
      error: answer.error ?? (answer.ok ? undefined : describeStatus(answer.status)),
      nextDelayMs: answer.ok ? null : nextAttemptDelayMs(claimed.number, this.config.retryUnitMs),
    });
    if (!settled) return { outcome: 'claim-lost' };
    if (settled.state !== 'pending') return { outcome: settled.state as 'succeeded' | 'failed' };
    return { outcome: 'scheduled', next: { workspaceId, deliveryId, jobId: attemptJobId(deliveryId, claimed.number), delayMs: settled.dueInMs } };
  }

  private secretOf(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      secret = openSecret(this.config.appSecret, sealed);
      if (this.secrets.size >= 10_000) this.secrets.clear();
      this.secrets.set(sealed, secret);
    }
    return secret;
  }
}

function describeStatus(status: number | undefined): string | undefined {
  if (status === undefined) return undefined;
  if (status >= 300 && status < 400) return `Answered ${status}: redirects are not followed and count as a failure.`;
  return `Answered ${status}: only a 2xx answer is a success.`;
}
