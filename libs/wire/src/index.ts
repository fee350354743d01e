// The wire: what the key-authenticated endpoints take and answer (docs/rest.md#key-authenticated-routes:
// fields, answers, message pages and threads; docs/rest.md#answers-and-refusals). Shared by the server
// and the client package (libs/sdk compiles these files into itself), so it imports nothing, not even
// from platform.

/** Every refusal code with the HTTP status it answers. */
export const REFUSAL_STATUS = {
  invalid_json: 400,
  invalid_email: 400,
  unknown_list: 400,
  missing_consent: 400,
  nothing_to_identify: 400,
  no_identity: 400,
  unknown_event: 400,
  invalid_expiry: 400,
  empty_message: 400,
  missing_body: 400,
  invalid_subject: 400,
  reserved_event_name: 400,
  too_many_items: 400,
  invalid_field: 400,
  unsupported_protocol_version: 400,
  invalid_key: 401,
  invalid_token: 401,
  invalid_signature: 401,
  origin_not_allowed: 403,
  no_longer_a_member: 403,
  use_the_public_key_from_browsers: 403,
  forbidden: 403,
  unknown_key: 404,
  unknown_action: 404,
  no_such_person: 404,
  unknown_template: 404,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  last_owner: 409,
  too_large: 413,
  headers_too_large: 431,
  not_engaged: 422,
  no_email: 422,
  opted_out: 422,
  undeliverable: 422,
  limit_reached: 422,
  rate_limited: 429,
  server_error: 500,
  unavailable: 503,
} as const;

export type RefusalCode = keyof typeof REFUSAL_STATUS;

/** A batch where some items were refused answers 207 with this code and every item's result. */
export const PARTIAL_FAILURE = 'partial_failure';

/** Every code an answer's error field can carry. */
export type WireErrorCode = RefusalCode | typeof PARTIAL_FAILURE;

/** The refusal envelope: a code and a sentence naming the fix. */
export interface WireRefusal {
  ok: false;
  error: WireErrorCode;
  message: string;
  /** On an invalid_field refusal that names one field: that field, as posted (a path such as source.os inside). */
  field?: string;
  /** On a field no route takes: the known field nearest it, when one is near enough to be what was meant. */
  nearest?: string;
}

export const EVENT_STATUSES = ['recorded', 'expired'] as const;
export const IDENTIFY_STATUSES = ['created', 'merged', 'linked'] as const;
export const SUBSCRIBE_STATUSES = ['subscribed', 'pending', 'already_subscribed'] as const;
export const SUPPORT_STATUSES = ['recorded'] as const;
export const UNSUBSCRIBE_STATUSES = ['unsubscribed', 'not_subscribed'] as const;

export type EventStatus = (typeof EVENT_STATUSES)[number];
export type IdentifyStatus = (typeof IDENTIFY_STATUSES)[number];
export type SubscribeStatus = (typeof SUBSCRIBE_STATUSES)[number];
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];
export type UnsubscribeStatus = (typeof UNSUBSCRIBE_STATUSES)[number];
/** Any action naming an erased identity: ok, nothing written, so a client does not retry. */
export const SUPPRESSED_STATUS = 'suppressed' as const;
export type ActionStatus =
  EventStatus | IdentifyStatus | SubscribeStatus | UnsubscribeStatus | SupportStatus | typeof SUPPRESSED_STATUS;

/** A success of POST /api/v1/events: id is the record the post landed on (absent for expired). */
export interface ActionSuccess<S extends ActionStatus = ActionStatus> {
  ok: true;
  status: S;
  id?: string;
}

/** One item's result in a batch answer, in the order sent. */
export type BatchItemResult = ({ index: number } & ActionSuccess) | ({ index: number } & WireRefusal);

/** A batch whose items were all ok. */
export interface BatchSuccess {
  ok: true;
  results: BatchItemResult[];
}

/** A batch that was refused whole (no results) or in part (partial_failure, with results). */
export interface BatchRefusal extends WireRefusal {
  results?: BatchItemResult[];
}

export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
export const MESSAGE_STATUSES = ['delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface Message {
  id: string;
  direction: MessageDirection;
  /** ISO 8601. */
  at: string;
  person: { id: string; name: string; email: string };
  subject: string;
  text: string;
  /** The email provider's id, for one that left. */
  providerId?: string;
  /** What the provider last said about one that left. */
  status?: MessageStatus;
}

/** One table's part of an erasure: rows removed, or for copies that stay (deliveries, outbox happenings) redacted. */
export interface ErasedTable {
  table: string;
  rows: number;
}

/** DELETE /api/v1/people/{id or email}: the erasure's proof, naming no one. */
export interface ErasureAnswer {
  ok: true;
  /** The erasure log's id (era_…). */
  id: string;
  erasedAt: string;
  /** Every table that held a part of the person, and how many rows went from it. */
  tables: ErasedTable[];
  /** Identity keys now on the suppression list: a later post naming one answers suppressed and writes nothing. */
  suppressedKeys: number;
}

/** GET /api/v1/people/{id or email}/export: everything held about one person, each section oldest first. */
export interface PersonExport {
  exportedAt: string;
  /** The person's record as stored (fields, first touch, stage, counts) and mergedIds, the records merged into it. */
  person: Record<string, unknown>;
  /** Every email, anonymous id and account id the person was known by. */
  identities: Array<Record<string, unknown>>;
  /** Each list with the consent words exactly as posted, the IP and the time, and their withdrawal. */
  subscriptions: Array<Record<string, unknown>>;
  /** Consents a later subscribe to the same list replaced, each with its withdrawal. */
  earlierConsents: Array<Record<string, unknown>>;
  /** Every timeline row: events, notes, stage changes, merges, emails as rows. */
  timeline: Array<Record<string, unknown>>;
  /** Every email sent to or received from the person, with subject and bodies. */
  messages: Array<Record<string, unknown>>;
  /** The runs automations made for the person, with their logs. */
  automationRuns: Array<Record<string, unknown>>;
  /** The webhook deliveries whose bodies named the person, with the body as sent. */
  deliveries: Array<Record<string, unknown>>;
}

/** GET /api/v1/messages: newest first; pass nextCursor back as cursor for the next page. */
export interface MessagePage {
  ok: true;
  messages: Message[];
  nextCursor?: string;
}

/** GET /api/v1/people/{id or email}/messages: oldest first. */
export interface MessageThread {
  ok: true;
  /** The person's record id. */
  person: string;
  messages: Message[];
}

/** POST /api/v1/messages: id is the row on the person's timeline. */
export interface SendSuccess {
  ok: true;
  id: string;
  /** Present when a provider key is set and the email really left. */
  providerId?: string;
}

// What is posted, by its wire names (snake_case).
export * from './posted';

export interface WireSendMessage {
  to: string;
  subject?: string;
  body?: string;
  template?: string;
}

export interface WireMessageQuery {
  since?: string;
  until?: string;
  person?: string;
  direction?: MessageDirection;
  limit?: string;
  cursor?: string;
}

/** Items in one batch (docs/rest.md#events). */
export const MAX_BATCH_ITEMS = 100;
