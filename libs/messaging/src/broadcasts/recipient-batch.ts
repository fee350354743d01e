// Queued recipients of one broadcast taking their turns together
// (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms): checked at once, marked
// 'sending' with their messages stored in one commit before the provider is called, sent BROADCAST_SENDS_IN_FLIGHT
// at a time at the pace's slots, and settled as the provider answers, the answers in hand written in one commit.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { happening, OutboxWriter } from '@app/outbox';
import { PersonRow } from '@app/people';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { MessagesRepository } from '../messages.repository';
import { EMAIL_PROVIDER } from '../messaging.tokens';
import type { EmailProvider } from '../providers';
import { BroadcastLetter, BroadcastMail, BroadcastMailer } from './broadcast-mail';
import {
  BroadcastRecipientsRepository,
  ClaimedRecipient,
  RecipientBatchKey,
  Sent,
} from './broadcast-recipients.repository';
import { RecipientCheck } from './recipient-check';
import { inLanes, Pace, RecipientTurn } from './recipient-turn';

/** One recipient ready to send: their row, the person now, the message's id and the email. */
interface Ready {
  r: ClaimedRecipient;
  person: PersonRow;
  messageId: string;
  mail: BroadcastMail;
}

@Injectable()
export class RecipientBatch {
  private readonly logger = new Logger('BroadcastSender');

  constructor(
    private readonly recipients: BroadcastRecipientsRepository,
    private readonly messages: MessagesRepository,
    private readonly check: RecipientCheck,
    private readonly mailer: BroadcastMailer,
    private readonly turn: RecipientTurn,
    private readonly outbox: OutboxWriter,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** The turns of queued rows of the letter's broadcast, all claimed by `worker`. */
  async take(worker: string, letter: BroadcastLetter, rows: readonly ClaimedRecipient[], pace: Pace): Promise<void> {
    const batch = { workspaceId: letter.workspaceId, broadcastId: letter.broadcastId, worker };
    const now = await this.check.now(
      letter,
      rows.map((r) => r.person_id),
    );
    const skips: Array<{ personId: string; reason: string }> = [];
    const ready: Ready[] = [];
    for (const r of rows) {
      const person = now.get(r.person_id)!;
      if (typeof person === 'string') skips.push({ personId: r.person_id, reason: person });
      else {
        const composed = await this.compose(batch, letter, r, person);
        if (composed) ready.push(composed);
      }
    }
    await this.recipients.markSkippedMany(batch, skips);
    const stored = await this.store(batch, ready);
    if (stored.length) this.outbox.kick();
    await this.send(batch, stored, pace);
  }

  /** The person's email, or null when it cannot be made for them (recorded failed). */
  private async compose(batch: RecipientBatchKey, letter: BroadcastLetter, r: ClaimedRecipient, person: PersonRow) {
    const messageId = r.message_id ?? newId('msg');
    try {
      return { r, person, messageId, mail: await this.mailer.compose(letter, person, messageId) };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      await this.recipients.markFailed({ ...keyOf(batch, r.person_id) }, batch.worker, error.message);
      return null;
    }
  }

  /**
   * Marks the rows 'sending' and stores the messages not stored yet (their timeline rows and `email_sent`
   * happenings) in one commit, the people locked as a one-to-one send locks its person; answers those marked.
   * A row whose person was merged or erased since the check goes back, and is skipped at its next turn.
   */
  private async store(batch: RecipientBatchKey, ready: readonly Ready[]): Promise<Ready[]> {
    if (!ready.length) return [];
    const marked = await this.recipients
      .transaction(async (m) => {
        const marking = ready.map((x) => ({ personId: x.r.person_id, messageId: x.messageId }));
        const sending = await this.recipients.markSendingMany(m, batch, marking);
        const fresh = ready.filter((x) => sending.has(x.r.person_id) && !x.r.message_id);
        const locked = await this.recipients.lockPeople(
          m,
          batch.workspaceId,
          fresh.map((x) => x.r.person_id),
        );
        const here = new Set(locked.filter((p) => !p.merged_into && p.email).map((p) => p.id));
        const gone = fresh.filter((x) => !here.has(x.r.person_id));
        if (gone.length) throw new PeopleMoved(gone.map((x) => x.r.person_id));
        const at = new Date();
        await this.messages.insertMany(
          m,
          fresh.map((x) => ({
            workspaceId: batch.workspaceId,
            id: x.messageId,
            personId: x.r.person_id,
            direction: 'out' as const,
            at,
            ...{ subject: x.mail.rendered.subject, text: x.mail.rendered.text, html: x.mail.rendered.html },
            templateId: null,
            sendState: 'sending' as const,
            address: x.person.email!,
            broadcastId: batch.broadcastId,
          })),
        );
        const event = (id: string) => ({ event: { event: 'email_sent', id, occurred_at: at.toISOString() } });
        await this.outbox.write(
          m,
          fresh.map((x) => happening(batch.workspaceId, x.r.person_id, at, event(x.messageId))),
        );
        return sending;
      })
      .catch(async (error) => {
        if (!(error instanceof PeopleMoved)) throw error;
        // Nothing was written; the others go again without those people, who are skipped at their next turn.
        await this.recipients.releaseMany(batch, error.personIds);
        return this.store(
          batch,
          ready.filter((x) => !error.personIds.includes(x.r.person_id)),
        ).then((again) => new Set(again.map((x) => x.r.person_id)));
      });
    const stored = ready.filter((x) => marked.has(x.r.person_id));
    await this.recipients.releaseMany(
      batch,
      ready.filter((x) => !marked.has(x.r.person_id)).map((x) => x.r.person_id),
    );
    return stored;
  }

  /** The provider's calls, each at its slot, as many at once as the process's in flight allow; settled as they come. */
  private async send(batch: RecipientBatchKey, stored: readonly Ready[], pace: Pace): Promise<void> {
    if (!this.provider) throw new Error('No email provider is configured.');
    const provider = this.provider;
    const settle = new Settlements((sent) => this.settle(batch, sent), this.logger);
    await inLanes(stored, this.config.broadcastSendsInFlight, async (x) => {
      await pace.wait();
      const k = keyOf(batch, x.r.person_id);
      try {
        const { providerId } = await pace.inFlight(() =>
          provider.send({
            from: this.config.emailFrom,
            to: x.person.email!,
            ...{ subject: x.mail.rendered.subject, html: x.mail.rendered.html, text: x.mail.rendered.text },
            headers: x.mail.headers,
            messageId: x.mail.messageIdHeader,
          }),
        );
        settle.add({ personId: x.r.person_id, messageId: x.messageId, providerId });
      } catch (error) {
        await this.turn.failed({ worker: batch.worker, k, attempts: x.r.attempts + 1 }, x.messageId, error);
      }
    });
    await settle.drained();
  }

  private settle(batch: RecipientBatchKey, sent: readonly Sent[]): Promise<void> {
    return this.recipients.transaction(async (m) => {
      await this.messages.markSentMany(
        m,
        batch.workspaceId,
        sent.map((s) => ({ id: s.messageId, providerId: s.providerId })),
      );
      await this.recipients.markSentMany(m, batch, sent);
    });
  }
}

/**
 * The provider's answers waiting for their commit: written as soon as the previous write ends, all that came
 * meanwhile in one, so an answer waits about one commit (the window in which a crash sends it again).
 */
class Settlements {
  private waiting: Sent[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly write: (sent: readonly Sent[]) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  add(sent: Sent): void {
    this.waiting.push(sent);
    this.writing ??= this.flush();
  }

  async drained(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async flush(): Promise<void> {
    while (this.waiting.length) {
      const sent = this.waiting.splice(0);
      // Unwritten, the rows stay 'sending' under this claim: after the lease they are taken over, and their
      // messages' provider ids (written with them) are missing, so they are sent again with the same Message-ID.
      await this.write(sent).catch((error: Error) => this.logger.error(`broadcast settlement: ${error.message}`));
    }
    this.writing = null;
  }
}

class PeopleMoved extends Error {
  constructor(readonly personIds: string[]) {
    super('Some people of the batch were merged or erased since their check.');
  }
}

const keyOf = (b: RecipientBatchKey, personId: string) => ({
  workspaceId: b.workspaceId,
  broadcastId: b.broadcastId,
  personId,
});
