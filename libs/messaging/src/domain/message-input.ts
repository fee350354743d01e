// docs/rest.md#messages (POST /api/v1/messages): its fields, limits and refusals.
import { Refusal } from '@app/platform';
import { isEmail, normalizeEmail } from '@app/people';
import { isObject } from '@app/edge/posted-input';
import { normalizeSubject } from './subject';

export const MESSAGE_LIMITS = {
  subjectMin: 2,
  subjectMax: 200,
  bodyMin: 2,
  bodyMax: 20_000,
  template: 200,
  to: 320,
} as const;

export type MessageRecipient = { kind: 'email'; email: string } | { kind: 'id'; id: string };

export interface SendMessageInput {
  to: MessageRecipient;
  subject?: string;
  body?: string;
  /** A template's name or id; when set, subject and body (if given) override the template's own. */
  template?: string;
}

/** Characters as people count them: code points, so an emoji is one character, not two UTF-16 units. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** An email address (trimmed, lower-cased) or, failing that, a record id the service looks up. */
export function parseRecipient(raw: unknown): MessageRecipient | Refusal {
  if (typeof raw !== 'string' || raw.trim() === '') {
    return new Refusal(
      'invalid_field',
      "Set to to the recipient's email address or record id, like ada@example.com or per_01J….",
    );
  }
  if (characterCount(raw) > MESSAGE_LIMITS.to) {
    return new Refusal(
      'invalid_field',
      `Shorten to to at most ${MESSAGE_LIMITS.to} characters: an email address or a record id.`,
    );
  }
  const email = normalizeEmail(raw);
  return isEmail(email) ? { kind: 'email', email } : { kind: 'id', id: raw.trim() };
}

export function parseSubject(raw: unknown): string | Refusal {
  const subject = typeof raw === 'string' ? normalizeSubject(raw) : '';
  const length = characterCount(subject);
  if (length < MESSAGE_LIMITS.subjectMin || length > MESSAGE_LIMITS.subjectMax) {
    return new Refusal(
      'invalid_subject',
      `Send a subject of ${MESSAGE_LIMITS.subjectMin} to ${MESSAGE_LIMITS.subjectMax} characters${typeof raw === 'string' ? `; this one has ${length}` : ''}.`,
    );
  }
  return subject;
}

export function parseBody(raw: unknown): string | Refusal {
  const body = typeof raw === 'string' ? raw.trim() : '';
  const length = characterCount(body);
  if (length < MESSAGE_LIMITS.bodyMin || length > MESSAGE_LIMITS.bodyMax) {
    return new Refusal(
      'missing_body',
      `Send a body of 2 to 20,000 characters${typeof raw === 'string' ? `; this one has ${length}` : ''}.`,
    );
  }
  return body;
}

export function parseTemplateName(raw: unknown): string | Refusal {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name === '' || characterCount(name) > MESSAGE_LIMITS.template) {
    return new Refusal(
      'invalid_field',
      "Set template to a template's name or id (1 to 200 characters), or leave it out and send subject and body.",
    );
  }
  return name;
}

/** Absent means undefined or null: both say "not given". */
function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * POST /api/v1/messages payload -> what to send, or the first refusal in field order (to, template, subject, body).
 * With a template, subject and body are optional overrides, checked by the same length rules when given.
 */
export function parseSendMessage(raw: unknown): SendMessageInput | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      'Send a JSON object like {"to":"ada@example.com","subject":"Hi","body":"Hello Ada"}.',
    );
  const to = parseRecipient(raw.to);
  if (to instanceof Refusal) return to;
  const input: SendMessageInput = { to };

  if (given(raw.template)) {
    const template = parseTemplateName(raw.template);
    if (template instanceof Refusal) return template;
    input.template = template;
  }
  if (!input.template || given(raw.subject)) {
    const subject = parseSubject(raw.subject);
    if (subject instanceof Refusal) return subject;
    input.subject = subject;
  }
  if (!input.template || given(raw.body)) {
    const body = parseBody(raw.body);
    if (body instanceof Refusal) return body;
    input.body = body;
  }
  return input;
}
