// One recipient's turn (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms):
// at the pace's slot, asked again whether they may get it; the row marked 'sending' and the message stored in one
// commit before the provider is called; settled after. A row found 'sending' was interrupted: its stored message is
// sent again with the same Message-ID.
import { Inject, Injectable } from '@nestjs/common';
import { SegmentsService } from '@app/events';
import { happening, OutboxWriter } from '@app/outbox';
import { PeopleReadRepository, PersonRow } from '@app/people';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { EmailStandingService } from '../email-standing.service';
import { MessagesRepository } from '../messages.repository';
import { EMAIL_PROVIDER } from '../messaging.tokens';
import type { EmailProvider, OutgoingMail } from '../providers';
import { BroadcastLetter, BroadcastMailer } from './broadcast-mail';
import { BroadcastRecipientsRepository, ClaimedRecipient, RecipientKey } from './broadcast-recipients.repository';
import { BroadcastsRepository } from './broadcasts.repository';
import { isPermanentFailure, retryDelayMs, skipReason, SkipReason } from './domain/recipient';

/** The pace of one process's sends: a slot waited for, and given back by a turn that sends nothing. */
export interface Pace {
  wait(): Promise<void>;
  giveBack(): void;
}

/** Who takes the turn, whose row, and the attempt it is. */
interface Turn {
  worker: string;
  k: RecipientKey;
  attempts: number;
}

@Injectable()
export class RecipientTurn {
  constructor(
    private readonly recipients: BroadcastRecipientsRepository,
    private readonly broadcasts: BroadcastsRepository,
    private readonly messages: MessagesRepository,
    private readonly people: PeopleReadRepository,
    private readonly segments: SegmentsService,
    private readonly standing: EmailStandingService,
    private readonly mailer: BroadcastMailer,
    private readonly outbox: OutboxWriter,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The recipient's turn once the pace gives it a slot, so the check, the mark and the send follow one another at
   * once; a turn that sends nothing gives the slot back.
   */
  async take(worker: string, letter: BroadcastLetter, r: ClaimedRecipient, pace: Pace): Promise<void> {
    await pace.wait();
    const sent = await this.turnOf(worker, letter, r);
    if (!sent) pace.giveBack();
  }

  /** True when the provider was called. */
  private async turnOf(worker: string, letter: BroadcastLetter, r: ClaimedRecipient): Promise<boolean> {
    const k = { workspaceId: r.workspace_id, broadcastId: r.broadcast_id, personId: r.person_id };
    const turn = { worker, k, attempts: r.attempts + 1 };
    if (r.state === 'sending' && r.message_id) return this.resend(turn, letter, r.message_id);
    const now = await this.now(letter, r.person_id);
    if (typeof now === 'string') {
      await this.recipients.markSkipped(k, worker, now);
      return false;
    }
    const messageId = r.message_id ?? newId('msg');
    let mail: Awaited<ReturnType<BroadcastMailer['compose']>>;
    try {
      mail = await this.mailer.compose(letter, now, messageId);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      await this.recipients.markFailed(k, worker, error.message);
      return false;
    }
    const stored = await this.recipients.transaction(async (m) => {
      if (!(await this.recipients.markSending(m, k, worker, messageId))) return false;
      if (r.message_id) return true;
      const person = await this.messages.lockPerson(m, k.workspaceId, k.personId);
      if (!person?.email) throw new Error(`The person of broadcast ${k.broadcastId}'s turn is gone.`);
      const at = new Date();
      const { rendered } = mail;
      await this.messages.insert(m, {
        workspaceId: k.workspaceId,
        id: messageId,
        personId: person.id,
        direction: 'out',
        at,
        ...{ subject: rendered.subject, text: rendered.text, html: rendered.html },
        templateId: null,
        sendState: 'sending',
        address: person.email,
        broadcastId: k.broadcastId,
      });
      const data = { event: { event: 'email_sent', id: messageId, occurred_at: at.toISOString() } };
      await this.outbox.write(m, [happening(k.workspaceId, person.id, at, data)]);
      return true;
    });
    if (!stored) {
      await this.recipients.release(k, worker);
      return false;
    }
    this.outbox.kick();
    return this.deliver(turn, messageId, {
      from: this.config.emailFrom,
      to: now.email!,
      ...{ subject: mail.rendered.subject, html: mail.rendered.html, text: mail.rendered.text },
      headers: mail.headers,
      messageId: mail.messageIdHeader,
    });
  }

  /** The person as they are now, or why they get nothing now. */
  private async now(letter: BroadcastLetter, personId: string): Promise<PersonRow | SkipReason> {
    const { workspaceId, audience } = letter;
    const [person] = await this.people.byIds(workspaceId, [personId]);
    let inAudience = false;
    if (person && audience.kind === 'list') {
      const subscriptions = await this.people.subscriptionsOf(workspaceId, [personId]);
      inAudience = subscriptions.some((s) => s.list_id === audience.listId && s.status === 'subscribed');
    } else if (person && audience.kind === 'segment') {
      inAudience = (await this.segments.ofPeople(workspaceId, [personId])).some((s) => s.id === audience.id);
    }
    const standing = person ? await this.standing.of(workspaceId, person) : { optOut: null, undeliverable: null };
    const reason = skipReason({ person: person ?? null, inAudience, audience: audience.kind, ...standing });
    return reason ?? person!;
  }

  /** An interrupted send's message again, as it was stored, with the same Message-ID. */
  private async resend(turn: Turn, letter: BroadcastLetter, messageId: string): Promise<boolean> {
    const { worker, k } = turn;
    const stored = await this.broadcasts.outgoing(k.workspaceId, messageId);
    if (!stored?.address) {
      await this.recipients.markFailed(k, worker, 'The message of this interrupted send is gone (erased).');
      return false;
    }
    if (stored.provider_id) {
      // The provider's id was recorded before the stop: it left; only the recipient's row was not settled.
      await this.recipients.markSent(k, worker, stored.provider_id);
      return false;
    }
    const marked = await this.recipients.transaction((m) => this.recipients.markSending(m, k, worker, messageId));
    if (!marked) {
      await this.recipients.release(k, worker);
      return false;
    }
    const { headers, messageIdHeader } = this.mailer.headers(letter, k.personId, messageId);
    return this.deliver(turn, messageId, {
      from: this.config.emailFrom,
      to: stored.address,
      ...{ subject: stored.subject, html: stored.html ?? '', text: stored.text },
      headers,
      messageId: messageIdHeader,
    });
  }

  /** The provider's call, then the settlement: sent, retried later, or failed for good. */
  private async deliver({ worker, k, attempts }: Turn, messageId: string, mail: OutgoingMail): Promise<boolean> {
    if (!this.provider) throw new Error('No email provider is configured.');
    let providerId: string;
    try {
      ({ providerId } = await this.provider.send(mail));
    } catch (error) {
      const message = (error as Error).message || 'The provider refused the email.';
      const delay = isPermanentFailure(error) ? null : retryDelayMs(attempts, this.config.retryUnitMs);
      if (delay !== null) await this.recipients.retryLater(k, worker, message, delay);
      else if (await this.recipients.markFailed(k, worker, message))
        await this.messages.markFailed(k.workspaceId, messageId, message);
      return true;
    }
    await this.messages.markSent(k.workspaceId, messageId, providerId);
    await this.recipients.markSent(k, worker, providerId);
    return true;
  }
}
