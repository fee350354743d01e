// Broadcasts (docs/graphql.md#broadcasts): what a broadcast is made of, the moves between its states, and the
// refusals of the moves a state does not allow.
import { Refusal } from '@app/platform/plain';
import { characterCount, parseBody, parseSubject, parseTemplateName } from '../../domain/message-input';

export const BROADCAST_STATES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled'] as const;
export type BroadcastState = (typeof BROADCAST_STATES)[number];

const BROADCAST_NAME_MAX = 120;

/** What createBroadcast and updateBroadcast take: the audience (a list's address or a segment's id) and the mail. */
export interface BroadcastInput {
  name?: string | null;
  list?: string | null;
  segment?: string | null;
  template?: string | null;
  subject?: string | null;
  body?: string | null;
}

export interface BroadcastContent {
  name: string;
  audience: { kind: 'list'; address: string } | { kind: 'segment'; id: string };
  template: string | null;
  subject: string | null;
  body: string | null;
}

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function refusal(code: 'invalid_field' | 'invalid_subject' | 'missing_body', message: string, field: string) {
  return new Refusal(code, message, { field });
}

/** The name, audience and mail, or the first refusal in field order (name, audience, template, subject, body). */
export function parseBroadcast(raw: BroadcastInput): BroadcastContent | Refusal {
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (!name || characterCount(name) > BROADCAST_NAME_MAX)
    return refusal('invalid_field', `name must be 1 to ${BROADCAST_NAME_MAX} characters.`, 'name');
  if (given(raw.list) === given(raw.segment))
    return refusal(
      'invalid_field',
      "Name exactly one audience: list (a list's address) or segment (a segment's id), not both and not neither.",
      given(raw.list) ? 'segment' : 'list',
    );
  const audience = given(raw.list)
    ? { kind: 'list' as const, address: String(raw.list).trim().toLowerCase() }
    : { kind: 'segment' as const, id: String(raw.segment).trim() };
  let template: string | null = null;
  if (given(raw.template)) {
    const parsed = parseTemplateName(raw.template);
    if (parsed instanceof Refusal) return new Refusal(parsed.code, parsed.message, { field: 'template' });
    template = parsed;
  }
  const content = { name, audience, template, subject: null as string | null, body: null as string | null };
  // As a one-to-one send: with a template, subject and body are overrides, checked when given.
  if (!template || given(raw.subject)) {
    const subject = parseSubject(raw.subject);
    if (subject instanceof Refusal) return new Refusal(subject.code, subject.message, { field: 'subject' });
    content.subject = subject;
  }
  if (!template || given(raw.body)) {
    const body = parseBody(raw.body);
    if (body instanceof Refusal) return new Refusal(body.code, body.message, { field: 'body' });
    content.body = body;
  }
  return content;
}

export type BroadcastMove = 'update' | 'schedule' | 'send' | 'pause' | 'resume' | 'cancel' | 'start';

/** The states each move leaves from; `start` is the scheduled time come (the worker's move). */
const FROM: Record<BroadcastMove, readonly BroadcastState[]> = {
  update: ['draft', 'scheduled'],
  schedule: ['draft', 'scheduled'],
  send: ['draft', 'scheduled'],
  start: ['scheduled'],
  pause: ['sending'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'sending', 'paused'],
};

const ALLOWED: Record<BroadcastMove, string> = {
  update: 'only a draft or a scheduled broadcast can be changed',
  schedule: 'only a draft or a scheduled broadcast can be scheduled',
  send: 'only a draft or a scheduled broadcast can start sending',
  start: 'only a scheduled broadcast starts at its time',
  pause: 'only a sending broadcast can be paused',
  resume: 'only a paused broadcast can be resumed',
  cancel: 'a sent or cancelled broadcast is over',
};

/** The refusal of a move the broadcast's state does not allow, naming the state; null when it may move. */
export function moveRefusal(state: BroadcastState, move: BroadcastMove): Refusal | null {
  if (FROM[move].includes(state)) return null;
  return new Refusal('conflict', `This broadcast is ${state}: ${ALLOWED[move]}.`, { state });
}

/** A scheduled time: a date, at most a year ahead; a time past means now. */
export function parseScheduledAt(at: Date, now: Date): Date | Refusal {
  if (!(at instanceof Date) || Number.isNaN(at.getTime()))
    return refusal('invalid_field', 'at must be a date and time, like 2027-01-15T09:00:00Z.', 'at');
  if (at.getTime() > now.getTime() + 366 * 86_400_000)
    return refusal('invalid_field', 'at must be within a year from now.', 'at');
  return at;
}
