// The api's side of the email queue: hands a stored message to the worker and waits, with a bound,
// for it to leave, so a slow provider never holds a request for long (docs/rest.md#messages).
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { AppConfig, CONFIG, Stamped, within } from '@app/platform';
import {
  SEND_ATTEMPTS,
  SEND_EMAIL_JOB,
  SEND_WAIT_MS,
  SendEmailJob,
  SendEmailResult,
  SEND_EMAIL,
} from './jobs/email.job';

export function enqueueOptions(messageId: string) {
  return {
    jobId: messageId,
    attempts: SEND_ATTEMPTS,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: 3_600 },
    removeOnFail: { age: 86_400 },
  };
}

@Injectable()
export class EmailQueue implements OnModuleDestroy {
  private readonly logger = new Logger('EmailQueue');
  private events: QueueEvents | null = null;
  readonly enabled: boolean;

  constructor(
    @InjectQueue(SEND_EMAIL.queue) private readonly queue: Queue<Stamped<SendEmailJob>, SendEmailResult>,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    this.enabled = !!(config.smtpUrl || config.resendApiKey);
  }

  /** The provider's id once the email left, or null when it did not leave within the wait (it still will). */
  async sendAndWait(job: SendEmailJob): Promise<string | null> {
    try {
      // The queue's own connection and prefix: on a cluster BullMQ duplicates its client for these blocking reads.
      this.events ??= new QueueEvents(SEND_EMAIL.queue, {
        connection: this.queue.opts.connection,
        prefix: this.queue.opts.prefix,
      });
      const started = Date.now();
      await within(this.events.waitUntilReady(), SEND_WAIT_MS);
      const added = await within(
        this.queue.add(SEND_EMAIL_JOB, SEND_EMAIL.payload(job), enqueueOptions(job.messageId)),
        SEND_WAIT_MS,
      );
      const result = await added.waitUntilFinished(this.events, Math.max(1, SEND_WAIT_MS - (Date.now() - started)));
      return result?.providerId ?? null;
    } catch (error) {
      // Redis down or a slow provider: the message stays queued and the worker's sweep sends it.
      this.logger.warn(`email ${job.messageId} not confirmed yet: ${(error as Error).message}`);
      return null;
    }
  }

  /** Hands the message to the worker without waiting; while Redis is down the sweep queues it later. */
  async enqueue(job: SendEmailJob): Promise<void> {
    try {
      await within(
        this.queue.add(SEND_EMAIL_JOB, SEND_EMAIL.payload(job), enqueueOptions(job.messageId)),
        SEND_WAIT_MS,
      );
    } catch (error) {
      this.logger.warn(`email ${job.messageId} not queued now, the sweep will: ${(error as Error).message}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.events?.close().catch(() => undefined);
  }
}
