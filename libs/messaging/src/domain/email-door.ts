// The email door of docs/rest.md#third-party-doors (a message's statuses, replies): a verified Resend
// webhook event -> a status for a message that left, a reply, or nothing.
import type { MessageStatus } from '@app/wire';
import { isEmail, normalizeEmail } from '@app/people';
import { isPermanentBounce } from './email-standing';

/** The door's name in door_receipts (replay protection). */
export const EMAIL_DOOR = 'email';

export type EmailDoorCommand =
  | {
      kind: 'status';
      providerId: string;
      status: MessageStatus;
      /** On a bounce: whether it was permanent, which marks the address undeliverable (isPermanentBounce). */
      permanent?: boolean;
    }
  | {
      kind: 'reply';
      /** The provider's id of the received email (Resend: fetch its body with GET /emails/receiving/{id}). */
      providerId: string;
      from: string;
      subject: string;
      /** Empty when the webhook carried no body (Resend's never does): see bodyMissing. */
      text: string;
      bodyMissing: boolean;
      inReplyToProviderId?: string;
    }
  | { kind: 'ignored' };

const STATUS_OF_TYPE: Record<string, MessageStatus> = {
  'email.delivered': 'delivered',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
};

// delivered < opened < clicked: a late "delivered" never hides an open or a click.
const ENGAGEMENT_RANK: Record<string, number> = { delivered: 1, opened: 2, clicked: 3 };
const isFailure = (status: MessageStatus) => status === 'bounced' || status === 'complained';

/** The status to keep when the provider says `incoming` about a message whose status is `current`. */
export function mergeStatus(current: MessageStatus | null | undefined, incoming: MessageStatus): MessageStatus {
  if (!current || isFailure(incoming)) return incoming;
  if (isFailure(current)) return current;
  return ENGAGEMENT_RANK[incoming] > ENGAGEMENT_RANK[current] ? incoming : current;
}

/** "Ada <Ada@Example.com>" or "ada@example.com" -> ada@example.com, or null when it holds no address. */
export function senderAddress(from: string): string | null {
  const angle = /<([^<>]+)>\s*$/.exec(from);
  const address = normalizeEmail(angle ? angle[1] : from);
  return isEmail(address) ? address : null;
}

/** The first message id of an In-Reply-To value, without angle brackets. */
export function firstMessageId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = /<([^<>\s]+)>/.exec(value)?.[1] ?? value.trim().split(/\s+/)[0];
  return id ? id : undefined;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

function headerOf(headers: unknown, name: string): unknown {
  if (Array.isArray(headers)) {
    return headers.find((h) => isObject(h) && typeof h.name === 'string' && h.name.toLowerCase() === name)?.value;
  }
  if (!isObject(headers)) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Readable text of an HTML-only email: tags dropped, blocks on their own lines. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr|blockquote)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A verified payload { type, created_at, data: { email_id, from, to, subject, text?, html?, … } } -> command. */
export function emailDoorCommand(payload: unknown): EmailDoorCommand {
  if (!isObject(payload) || typeof payload.type !== 'string' || !isObject(payload.data)) return { kind: 'ignored' };
  const data = payload.data;
  const providerId = nonEmpty(data.email_id);
  if (!providerId) return { kind: 'ignored' };

  const status = STATUS_OF_TYPE[payload.type];
  if (status === 'bounced') return { kind: 'status', providerId, status, permanent: isPermanentBounce(data) };
  if (status) return { kind: 'status', providerId, status };
  if (payload.type !== 'email.received') return { kind: 'ignored' };

  const from = typeof data.from === 'string' ? senderAddress(data.from) : null;
  if (!from) return { kind: 'ignored' };
  const text = nonEmpty(data.text) ?? (typeof data.html === 'string' ? htmlToText(data.html) : '');
  const inReplyTo = firstMessageId(data.in_reply_to ?? headerOf(data.headers, 'in-reply-to'));
  return {
    kind: 'reply',
    providerId,
    from,
    subject:
      typeof data.subject === 'string'
        ? data.subject
            .replace(/\s*[\r\n]+\s*/g, ' ')
            .trim()
            .slice(0, 998)
        : '',
    text,
    bodyMissing: text === '' && data.text === undefined && data.html === undefined,
    ...(inReplyTo ? { inReplyToProviderId: inReplyTo } : {}),
  };
}
