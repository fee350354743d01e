// The worker's side: claim the message, send it through the provider, record the outcome. A claim is
// taken before sending, so a message never leaves twice (a retry, the sweep and a second worker alike).
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AppConfig, CONFIG, DAY_MS, retainedSince, Stamped, SweepRegistry } from '@app/platform';
import { DoorReceiptsRepository } from '@app/edge';
import { EMAIL_DOOR, listUnsubscribeHeaders } from '../domain';
import { EmailStandingService } from '../email-standing.service';
import { EmailProvider } from '../providers';
import { enqueueOptions } from '../email-queue';
import { MessagesRepository } from '../messages.repository';
import { EMAIL_PROVIDER } from '../messaging.tokens';
import { SEND_EMAIL_JOB, SendEmailJob, SendEmailResult, SEND_EMAIL } from './email.job';

/** The inbound email webhook's ids, long past the signature's tolerance. */
const INBOUND_EMAIL_RECEIPTS_KEPT_MS = DAY_MS;

const STALE_QUEUED_MS = 60_000;
const STALE_SENDING_MS = 10 * 60_000;

@Processor(SEND_EMAIL.queue)
export class EmailProcessor extends WorkerHost implements OnModuleInit {
  private readonly logger = new Logger('EmailProcessor');

  constructor(
    private readonly messages: MessagesRepository,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
    @InjectQueue(SEND_EMAIL.queue) private readonly queue: Queue<Stamped<SendEmailJob>, SendEmailResult>,
    private readonly sweeps: SweepRegistry,
    private readonly receipts: DoorReceiptsRepository,
    private readonly standing: EmailStandingService,
  ) {
    super();
  }

  onModuleInit(): void {
    this.sweeps.register('unsent-email', () => this.requeueStale());
    // A signed post older than the signature's 5-minute tolerance is refused anyway: a day of receipts is plenty.
    this.sweeps.register('email-door-receipts', () =>
      this.receipts.deleteBefore(retainedSince(INBOUND_EMAIL_RECEIPTS_KEPT_MS), { only: [EMAIL_DOOR] }),
    );
  }

  /**
   * A newer payload is put back for a newer worker, its attempts untouched; an unreadable one fails without
   * retry: its message was never claimed, so it stays queued in PostgreSQL and requeueStale queues it again
   * (docs/architecture.md#job-payloads).
   */
  async process(job: Job, token?: string): Promise<SendEmailResult> {
    const { workspaceId, messageId } = await SEND_EMAIL.take(job, token);
    const message = await this.messages.claim(workspaceId, messageId);
    if (!message) return { providerId: (await this.messages.sendState(workspaceId, messageId))?.provider_id ?? null };
    if (!this.provider) {
      await this.messages.markFailed(
        workspaceId,
        messageId,
        'No email provider is configured (SMTP_URL or RESEND_API_KEY).',
      );
      return { providerId: null };
    }
    try {
      const { providerId } = await this.provider.send({
        from: this.config.emailFrom,
        to: message.address,
        subject: message.subject,
        html: message.html ?? '',
        text: message.text,
        // Every message goes to a person of the workspace: RFC 8058's one-click link rides on each
        // (docs/security.md#the-preferences-link); the members' sign-in links leave elsewhere, without it.
        headers: {
          'X-Lifeline-Message': messageId,
          ...listUnsubscribeHeaders(this.standing.preferencesUrl(workspaceId, message.person_id)),
        },
      });
      await this.messages.markSent(workspaceId, messageId, providerId);
      return { providerId };
    } catch (error) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (last) await this.messages.markFailed(workspaceId, messageId, (error as Error).message);
      else await this.messages.release(workspaceId, messageId);
      throw error;
    }
  }

  /**
   * Messages whose job was lost (Redis down when they were stored) go back on the queue. So do those whose
   * job failed before any claim (an unreadable payload, the database down at each attempt): their failed
   * job, kept a day under the message's id, would make adding it again a no-op.
   */
  private async requeueStale(): Promise<number> {
    const stale = await this.messages.waitingSince(new Date(Date.now() - STALE_QUEUED_MS), 500);
    for (const row of stale) {
      const kept = await this.queue.getJob(row.id);
      if (kept && (await kept.isFailed())) await kept.remove();
      await this.queue.add(
        SEND_EMAIL_JOB,
        SEND_EMAIL.payload({ workspaceId: row.workspace_id, messageId: row.id }),
        enqueueOptions(row.id),
      );
    }
    const interrupted = await this.messages.failInterrupted(
      new Date(Date.now() - STALE_SENDING_MS),
      'The worker stopped while sending; it is unknown whether the email left.',
    );
    return stale.length + interrupted;
  }
}
