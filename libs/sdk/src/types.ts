// docs/client-package.md: the options the client takes (camelCase) and the
// answers it resolves to. Answer shapes come from the server's wire module, compiled into this package.
import type {
  ActionSuccess,
  BatchItemResult,
  BatchSuccess,
  EventStatus,
  IdentifyStatus,
  MessageDirection,
  MessagePage,
  MessageThread,
  SendSuccess,
  SubscribeStatus,
  SupportStatus,
  UnsubscribeStatus,
  WireErrorCode,
  WireSupport,
} from '@app/wire';

export type {
  ActionStatus,
  ActionSuccess,
  BatchItemResult,
  BatchSuccess,
  EventStatus,
  IdentifyStatus,
  Message,
  MessageDirection,
  MessagePage,
  MessageStatus,
  MessageThread,
  RefusalCode,
  SendSuccess,
  SubscribeStatus,
  SupportStatus,
  UnsubscribeStatus,
  WireErrorCode,
} from '@app/wire';

/** The part of a fetch answer the client reads; the global Response fits. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** Any fetch implementation: the global one, undici's, or a test's. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<FetchResponseLike>;

export interface LifelineOptions {
  /** The service's base address. Default: the LIFELINE_URL environment variable, else http://localhost:3000. */
  url?: string;
  /** A fetch implementation. Default: the global fetch. */
  fetch?: FetchLike;
  /** Time allowed for each attempt, in milliseconds. Default 5000. */
  timeoutMs?: number;
  /** Attempts in all, the first counted (1 means never retry). Default 3. */
  retries?: number;
}

/** Codes the client gives itself when no answer from the service says otherwise. */
export type ClientErrorCode =
  /** fetch threw (refused connection, DNS, TLS...) on every attempt. */
  | 'network_error'
  /** No answer within timeoutMs on every attempt. */
  | 'timeout'
  /** The service answered something that is not a Lifeline answer (not JSON, or no ok field). */
  | 'invalid_response';

/** A code from the service or from the client; any other string is a code from a newer service. */
export type ErrorCode = WireErrorCode | ClientErrorCode | (string & {});

/** Every method resolves to its answer or to this; none throws. */
export interface LifelineRefusal {
  ok: false;
  error: ErrorCode;
  /** A sentence naming the fix: the service's own, untouched, when it gave one. */
  message: string;
  /** The HTTP status of the answer; 0 when there was none (network, timeout, or refused before sending). */
  httpStatus: number;
  /** Seconds to wait, from Retry-After, on a 429 rate_limited. */
  retryAfter?: number;
  /** A batch refused in part (partial_failure) carries every item's result. */
  results?: BatchItemResult[];
}

export type Outcome<T> = T | LifelineRefusal;
export type TrackOutcome = Outcome<ActionSuccess<EventStatus>>;
export type IdentifyOutcome = Outcome<ActionSuccess<IdentifyStatus>>;
export type SubscribeOutcome = Outcome<ActionSuccess<SubscribeStatus>>;
export type SupportOutcome = Outcome<ActionSuccess<SupportStatus>>;
export type UnsubscribeOutcome = Outcome<ActionSuccess<UnsubscribeStatus>>;
export type BatchOutcome = Outcome<BatchSuccess>;
export type SendOutcome = Outcome<SendSuccess>;
export type PageOutcome = Outcome<MessagePage>;
export type ThreadOutcome = Outcome<MessageThread>;

/** A moment: a Date, or an ISO 8601 string sent as it is. */
export type Moment = Date | string;

/** Where a post came from (docs/rest.md#events). */
export interface Source {
  path?: string;
  referrer?: string;
  os?: string;
  anonId?: string;
  utm?: { source?: string; medium?: string; campaign?: string; term?: string; content?: string };
  clickId?: string;
}

/** Who a post is about: one or more of these. */
export interface Identity {
  email?: string;
  anonId?: string;
  accountId?: string;
}

export interface TrackOptions extends Identity {
  /** Money for a purchase, in whole currency units. */
  value?: number;
  properties?: Record<string, unknown>;
  occurredAt?: Moment;
  /** Must be after occurredAt; on that day the timeline row is deleted. */
  expiresAt?: Moment;
  /** Your id for the thing that happened: a repeat writes nothing and answers the first answer. */
  idempotencyKey?: string;
  /** One line shown beside the event on the timeline. */
  detail?: string;
  source?: Source;
}

export interface TrackEvent extends TrackOptions {
  /** A built-in event name or a custom one (2 to 40 of a-z, 0-9, _). */
  type: string;
}

export interface IdentifyOptions extends Identity {
  name?: string;
  fields?: Record<string, string | number | null>;
  source?: Source;
}

export interface Consent {
  /** The exact words the person read next to the form. */
  text: string;
  ip?: string;
  grantedAt?: Moment;
}

export interface SubscribeOptions {
  email: string;
  /** The list's address, from the workspace's list settings. */
  list: string;
  consent: string | Consent;
  anonId?: string;
  /** Where the signup happened, in your words. */
  sourceLabel?: string;
  source?: Source;
}

/** Takes the email off the list; the consent they gave stays beside the withdrawal. */
export interface UnsubscribeOptions {
  email: string;
  /** The list's address, from the workspace's list settings. */
  list: string;
}

/**
 * What a person wrote to support: message, and optionally from (their email address), who (their
 * name), topic, and version (your app's version when posted from inside one). Those five fields are
 * the wire's support item's own, whose names need no conversion.
 */
export interface SupportOptions extends Pick<WireSupport, 'message' | 'from' | 'who' | 'topic' | 'version'> {
  anonId?: string;
  accountId?: string;
  source?: Source;
}

/** One item of batch(): an event, or an action with its type. */
export type BatchItem =
  | TrackEvent
  | ({ type: 'identify' } & IdentifyOptions)
  | ({ type: 'subscribe' } & SubscribeOptions)
  | ({ type: 'unsubscribe' } & UnsubscribeOptions)
  | ({ type: 'support' } & SupportOptions);

/** messages.send: subject and body, or a template (subject or body beside it override the template's). */
export interface SendOptions {
  /** An email address or a record id. */
  to: string;
  subject?: string;
  body?: string;
  /** A template's name or id. */
  template?: string;
}

/** messages.list: every filter optional. */
export interface ListQuery {
  since?: Moment;
  until?: Moment;
  /** A record id or an email address. */
  person?: string;
  direction?: MessageDirection;
  /** 1 to 100; default 50. */
  limit?: number;
  /** nextCursor of the previous page. */
  cursor?: string;
}
