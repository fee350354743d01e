// A broadcast's recipient when their turn comes (docs/graphql.md#broadcasts): asked again whether they may get it,
// and the Message-ID and List-Id the email carries (docs/decisions.md#a-broadcasts-list-id).
import type { OptOut, Undeliverable } from '../../domain/email-standing';

export const SKIP_REASONS = [
  'unsubscribed',
  'left_segment',
  'no_email',
  'not_engaged',
  'opted_out',
  'undeliverable',
  'erased',
  'merged',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What is known of a recipient now: null person when the record is gone (merged into another, or erased). */
export interface RecipientNow {
  person: { email: string | null; engaged_at: Date | string | null } | null;
  /** Subscribed to the broadcast's list now, or a member of its segment now. */
  inAudience: boolean;
  audience: 'list' | 'segment';
  optOut: OptOut | null;
  undeliverable: Undeliverable | null;
}

/** Why the recipient gets nothing now, or null when the email goes: the one-to-one send's rules, and the audience. */
export function skipReason(now: RecipientNow): SkipReason | null {
  if (!now.person) return 'merged';
  if (!now.inAudience) return now.audience === 'list' ? 'unsubscribed' : 'left_segment';
  if (!now.person.email) return 'no_email';
  if (!now.person.engaged_at) return 'not_engaged';
  if (now.optOut) return 'opted_out';
  if (now.undeliverable) return 'undeliverable';
  return null;
}

/** The domain of an address like `Name <user@example.com>` or `user@example.com`; `localhost` without one. */
export function domainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  const domain =
    at >= 0
      ? address
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : '';
  return /^[a-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

/**
 * The Message-ID of a recipient's email, made from its message id alone: a resend after a crash carries the same
 * one, so the provider's record, the reply's In-Reply-To and a mailbox that drops repeats all recognise it.
 */
export function broadcastMessageId(messageId: string, from: string): string {
  return `<${messageId}@${domainOf(from)}>`;
}

/**
 * RFC 2919's List-Id: `<list-address.workspace-slug.lifeline>` with the address's @ as a dot, or
 * `<segment-id.workspace-slug.lifeline>` for a segment; lower case, only letters, digits, dots, dashes and _.
 */
export function listId(audience: string, workspaceSlug: string): string {
  const part = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '');
  return `<${part(audience)}.${part(workspaceSlug)}.lifeline>`;
}

/** The wait before the next attempt after a transient failure: ½, 2, then 8 "minutes" of `unitMs`; null: give up. */
export function retryDelayMs(attempts: number, unitMs: number): number | null {
  const minutes = [0.5, 2, 8];
  return attempts >= 1 && attempts <= minutes.length ? Math.round(minutes[attempts - 1] * unitMs) : null;
}

/**
 * A provider's refusal that no retry changes: an SMTP 5xx reply (nodemailer's responseCode), or a provider error
 * marked permanent; a 4xx reply, a timeout or a dropped connection is transient.
 */
export function isPermanentFailure(error: unknown): boolean {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    responseCode?: unknown;
    permanent?: unknown;
  };
  if (e.permanent === true) return true;
  return typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
}
