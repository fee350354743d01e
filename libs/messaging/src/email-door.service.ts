// docs/rest.md#third-party-doors, the email row: the provider's webhook sets a
// sent message's status, and a received email records a reply (direction in, engaged, email_in).
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { DoorReceiptsRepository } from '@app/edge';
import { SegmentMembership, UnsubscribeService } from '@app/events';
import { happening, OutboxWriter } from '@app/outbox';
import {
  EMAIL_DOOR,
  EmailDoorCommand,
  emailDoorCommand,
  htmlToText,
  IncomingHeaders,
  mergeStatus,
  verifyEmailWebhook,
} from './domain';
import { EmailStandingService } from './email-standing.service';
import { MessagesRepository } from './messages.repository';
import { EMAIL_PROVIDER } from './messaging.tokens';
import { EmailProvider, ResendEmailProvider } from './providers';

type StatusCommand = Extract<EmailDoorCommand, { kind: 'status' }>;
type ReplyCommand = Extract<EmailDoorCommand, { kind: 'reply' }>;

/** What the email door answers: recorded, ignored (nothing of ours), or replayed (seen before). */
export interface EmailDoorAnswer {
  ok: true;
  status: 'recorded' | 'ignored' | 'replayed';
}

@Injectable()
export class EmailDoorService {
  private readonly logger = new Logger('EmailDoor');

  constructor(
    private readonly messages: MessagesRepository,
    private readonly outbox: OutboxWriter,
    private readonly receipts: DoorReceiptsRepository,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly standing: EmailStandingService,
    private readonly unsubscribes: UnsubscribeService,
    private readonly segments: SegmentMembership,
  ) {}

  async receive(raw: Buffer | undefined, headers: IncomingHeaders): Promise<EmailDoorAnswer> {
    const secret = this.config.emailWebhookSecret;
    if (!secret) throw new Refusal('not_found', 'The email door is off: set EMAIL_WEBHOOK_SECRET to turn it on.');
    const verified = verifyEmailWebhook(secret, Buffer.isBuffer(raw) ? raw : Buffer.alloc(0), headers);
    if (verified instanceof Refusal) throw verified;
    const command = emailDoorCommand(verified.payload);
    if (command.kind === 'ignored') return this.once(verified.webhookId, async () => 'ignored');
    if (command.kind === 'status') return this.recordStatus(verified.webhookId, command);
    return this.recordReply(verified.webhookId, command);
  }

  private recordStatus(webhookId: string, command: StatusCommand): Promise<EmailDoorAnswer> {
    return this.once(webhookId, async (m) => {
      const message = await this.messages.byProviderIdForUpdate(m, command.providerId);
      if (!message) return 'ignored';
      const status = mergeStatus(message.status, command.status);
      if (status !== message.status)
        await this.messages.setStatus(m, message.workspace_id, message.id, status, new Date());
      await this.consequences(m, command, message);
      return 'recorded';
    });
  }

  /**
   * A complaint takes the person off every list of the workspace and opts them out; a permanent bounce marks the
   * address the message went to undeliverable (docs/decisions.md#bounces-and-complaints). A soft bounce marks nothing.
   */
  private async consequences(
    m: EntityManager,
    command: StatusCommand,
    message: { workspace_id: string; id: string; person_id: string; address: string | null },
  ): Promise<void> {
    if (command.status !== 'complained' && !(command.status === 'bounced' && command.permanent)) return;
    const person = await this.messages.lockPerson(m, message.workspace_id, message.person_id);
    if (!person) return;
    if (command.status === 'complained') {
      await this.standing.optOut(m, message.workspace_id, person.id, 'complaint', message.id);
      await this.unsubscribes.unsubscribe(message.workspace_id, person.id, { all: true }, { via: 'complaint' }, m);
    } else if (message.address) {
      await this.standing.markUndeliverable(m, {
        workspaceId: message.workspace_id,
        personId: person.id,
        address: message.address,
        messageId: message.id,
      });
    }
  }

  private async recordReply(webhookId: string, command: ReplyCommand): Promise<EmailDoorAnswer> {
    const { text, inReplyTo } = await this.replyBody(command);
    // The door is one address for every workspace and a sender writes its own headers: a reply counts
    // as the answer to the message it names only when it comes from the address that message went to.
    const named = inReplyTo ? await this.messages.answered([inReplyTo]) : null;
    const answered =
      named && named.address?.toLowerCase() === command.from.toLowerCase()
        ? named
        : await this.messages.latestSentTo(command.from);
    return this.once(webhookId, async (m) => {
      if (!answered) return 'ignored';
      const person = await this.messages.lockPerson(m, answered.workspace_id, answered.person_id);
      if (!person) return 'ignored';
      const id = newId('msg');
      const at = new Date();
      await this.messages.insert(m, {
        workspaceId: answered.workspace_id,
        id,
        personId: person.id,
        direction: 'in',
        at,
        subject: command.subject,
        text,
        html: null,
        templateId: null,
        sendState: 'received',
        address: command.from,
      });
      await this.messages.markEngaged(m, answered.workspace_id, person.id, at);
      await this.segments.refresh(m, answered.workspace_id, [person.id], { locked: true }); // engaged now
      await this.outbox.write(m, [
        happening(answered.workspace_id, person.id, at, {
          email_in: { message: { id, subject: command.subject, text } },
          event: { event: 'email_received', id, occurred_at: at.toISOString() },
        }),
      ]);
      return 'recorded';
    });
  }

  /** Resend's webhook names the email without its body: the body and In-Reply-To are fetched before the transaction. */
  private async replyBody(command: ReplyCommand): Promise<{ text: string; inReplyTo: string | undefined }> {
    let text = command.text;
    let inReplyTo = command.inReplyToProviderId;
    if (command.bodyMissing && this.provider instanceof ResendEmailProvider) {
      const fetched = await this.provider.fetchReceivedEmail(command.providerId).catch((error: Error) => {
        this.logger.warn(`could not fetch received email ${command.providerId}: ${error.message}`);
        return null;
      });
      text = fetched?.text ?? (fetched?.html ? htmlToText(fetched.html) : text);
      const header = fetched?.headers['in-reply-to'];
      if (!inReplyTo && typeof header === 'string') inReplyTo = header.replace(/[<>]/g, '');
    }
    return { text, inReplyTo };
  }

  /** Replays of the same webhook id change nothing: the receipt and the change commit together. */
  private async once(
    webhookId: string,
    work: (m: EntityManager) => Promise<EmailDoorAnswer['status']>,
  ): Promise<EmailDoorAnswer> {
    const status = await this.messages.transaction(async (m) => {
      if (!(await this.receipts.take(m, EMAIL_DOOR, webhookId))) return 'replayed';
      return work(m);
    });
    if (status === 'recorded') this.outbox.kick();
    return { ok: true, status };
  }
}
