// Whether email may go to a person (docs/rest.md#messages, the opted_out and undeliverable refusals): an opt-out
// (one-click, a complaint) stands until the person subscribes to a list again or an owner or admin lifts it; an
// address a permanent bounce marked stays undeliverable until the person has another address or it is lifted.
import { Refusal } from '@app/platform/plain';

export type OptOutVia = 'one_click' | 'complaint';

export interface OptOut {
  at: Date;
  via: OptOutVia;
}

export interface Undeliverable {
  at: Date;
  address: string;
  /** The message whose permanent bounce marked it. */
  messageId: string | null;
}

/** Of a person's subscriptions, what lifts an opt-out: being on a list, and since when. */
export interface SubscriptionSince {
  status: string;
  granted_at: Date | string;
}

/**
 * The opt-out that stands, or null: the latest one, unless the person is on a list whose consent was given after it
 * (subscribing again lifts it; a consent dated before the opt-out, as a backfill may send, does not).
 */
export function standingOptOut(optOuts: readonly OptOut[], subscriptions: readonly SubscriptionSince[]): OptOut | null {
  const latest = optOuts.reduce<OptOut | null>((a, b) => (!a || b.at > a.at ? b : a), null);
  if (!latest) return null;
  const again = subscriptions.some((s) => s.status === 'subscribed' && new Date(s.granted_at) > latest.at);
  return again ? null : latest;
}

/** The mark on the person's current address, or null: a mark on an address they no longer have is lifted. */
export function standingUndeliverable(
  marks: readonly Undeliverable[],
  email: string | null | undefined,
): Undeliverable | null {
  const current = email?.trim().toLowerCase();
  return marks.find((mark) => mark.address === current) ?? null;
}

/** The refusal of a send to a person who opted out or whose address bounced, or null. */
export function sendStandingRefusal(optOut: OptOut | null, undeliverable: Undeliverable | null): Refusal | null {
  if (optOut) {
    const how = optOut.via === 'complaint' ? 'they reported an email as spam' : 'the unsubscribe link';
    return new Refusal(
      'opted_out',
      `This person opted out of email on ${optOut.at.toISOString().slice(0, 10)} (${how}): nothing more goes to ` +
        'them until they subscribe to a list again or an owner or admin lifts the opt-out on their page.',
    );
  }
  if (undeliverable)
    return new Refusal(
      'undeliverable',
      `Email to ${undeliverable.address} bounced permanently on ${undeliverable.at.toISOString().slice(0, 10)}: ` +
        'give the person another address, or have an owner or admin lift the mark on their page once it works again.',
    );
  return null;
}

/**
 * Whether the email door's email.bounced is a permanent (hard) bounce. Resend sends the bounce's kind in
 * data.bounce.type as SES writes it: Permanent, Transient (a full mailbox, a server briefly down) or Undetermined.
 * Only Permanent marks the address; an event without a type counts as permanent, as Resend sends email.bounced only
 * when the receiving server rejected the mail for good (docs/decisions.md#bounces-and-complaints).
 */
export function isPermanentBounce(data: unknown): boolean {
  const bounce = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).bounce : undefined;
  if (typeof bounce !== 'object' || bounce === null) return true;
  const type = (bounce as Record<string, unknown>).type;
  if (typeof type !== 'string') return true;
  return type.trim().toLowerCase() === 'permanent';
}
