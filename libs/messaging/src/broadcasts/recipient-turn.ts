// An interrupted recipient's turn
// (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms):
// a row found 'sending' was taken over from a stopped worker, and its stored message is sent again with the same
// Message-ID unless the provider's id shows it left. Also the settlement of a provider's refusal, for every turn.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG } from '@app/platform';
import { MessagesRepository } from '../messages.repository';
import { EMAIL_PROVIDER } from '../messaging.tokens';
import type { EmailProvider, OutgoingMail } from '../providers';
import { BroadcastLetter, BroadcastMailer } from './broadcast-mail';
import { BroadcastRecipientsRepository, ClaimedRecipient, RecipientKey } from './broadcast-recipients.repository';
import { BroadcastsRepository } from './broadcasts.repository';
import { isPermanentFailure, retryDelayMs } from './domain/recipient';

/**
 * The pace of one process's sends: a slot waited for, and given back by a turn that sends nothing; and its
 * calls to the provider, BROADCAST_SENDS_IN_FLIGHT at once whichever batch makes them.
 */
export interface Pace {
  wait(): Promise<void>;
  giveBack(): void;
  inFlight<T>(call: () => Promise<T>): Promise<T>;
}

/** At most `size` calls at once; the others wait their turn, first come first served. */
export class Slots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await call();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}

/** `work` for each item, `lanes` of them at once, in the items' order. */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}

/** Who takes the turn, whose row, and the attempt it is. */
export interface Turn {
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
    private readonly mailer: BroadcastMailer,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** An interrupted send's turn once the pace gives it a slot; a turn that sends nothing gives the slot back. */
  async take(worker: string, letter: BroadcastLetter, r: ClaimedRecipient, pace: Pace): Promise<void> {
    await pace.wait();
    const k = { workspaceId: r.workspace_id, broadcastId: r.broadcast_id, personId: r.person_id };
    const sent = await this.resend({ worker, k, attempts: r.attempts + 1 }, letter, r.message_id!, pace);
    if (!sent) pace.giveBack();
  }

  /** An interrupted send's message again, as it was stored, with the same Message-ID. */
  private async resend(turn: Turn, letter: BroadcastLetter, messageId: string, pace: Pace): Promise<boolean> {
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
    const mail = {
      from: this.config.emailFrom,
      to: stored.address,
      ...{ subject: stored.subject, html: stored.html ?? '', text: stored.text },
      headers,
      messageId: messageIdHeader,
    };
    return this.deliver(turn, messageId, mail, pace);
  }

  /** The provider's call, then the settlement: sent, retried later, or failed for good. */
  private async deliver(turn: Turn, messageId: string, mail: OutgoingMail, pace: Pace): Promise<boolean> {
    if (!this.provider) throw new Error('No email provider is configured.');
    const { worker, k, attempts } = turn;
    const provider = this.provider;
    let providerId: string;
    try {
      ({ providerId } = await pace.inFlight(() => provider.send(mail)));
    } catch (error) {
      await this.failed({ worker, k, attempts }, messageId, error);
      return true;
    }
    await this.messages.markSent(k.workspaceId, messageId, providerId);
    await this.recipients.markSent(k, worker, providerId);
    return true;
  }

  /** The provider refused: the row retried later for a transient failure, else failed for good with its message. */
  async failed({ worker, k, attempts }: Turn, messageId: string, error: unknown): Promise<void> {
    const message = (error as Error).message || 'The provider refused the email.';
    const delay = isPermanentFailure(error) ? null : retryDelayMs(attempts, this.config.retryUnitMs);
    if (delay !== null) await this.recipients.retryLater(k, worker, message, delay);
    else if (await this.recipients.markFailed(k, worker, message))
      await this.messages.markFailed(k.workspaceId, messageId, message);
  }
}
