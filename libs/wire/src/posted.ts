// What is posted to the key-authenticated and website endpoints, by its wire names (snake_case)
// (docs/rest.md#events): a part of the wire module (./index.ts), which imports nothing beside its own files.

/** Where a post came from; the tag fills it in. A field not named here is ignored. */
export interface WireSource {
  path?: string;
  /** A host, or a whole address, which is kept as its host. */
  referrer?: string;
  /**
   * The visitor's operating system: only win, mac, linux and other become a field on the person; any other value
   * is dropped without a refusal.
   */
  os?: string;
  anon_id?: string;
  utm?: { source?: string; medium?: string; campaign?: string; term?: string; content?: string };
  click_id?: string;
}

export interface WireIdentity {
  email?: string;
  anon_id?: string;
  account_id?: string;
}

export interface WireEvent extends WireIdentity {
  type: string;
  value?: number;
  properties?: Record<string, unknown>;
  /** When it happened (ISO 8601); the time of arrival when left out. */
  occurred_at?: string;
  /** ISO 8601, after occurred_at: the timeline row is deleted then. */
  expires_at?: string;
  idempotency_key?: string;
  detail?: string;
  source?: WireSource;
}

export interface WireIdentify extends WireIdentity {
  type: 'identify';
  name?: string;
  fields?: Record<string, string | number | null>;
  source?: WireSource;
}

export interface WireConsent {
  text: string;
  ip?: string;
  /** ISO 8601. */
  granted_at?: string;
}

export interface WireSubscribe {
  type: 'subscribe';
  email: string;
  list: string;
  consent: string | WireConsent;
  anon_id?: string;
  source_label?: string;
  source?: WireSource;
}

/** Takes the person off the list (withdrawn via api); the consent they gave stays beside the withdrawal. */
export interface WireUnsubscribe {
  type: 'unsubscribe';
  email: string;
  list: string;
}

export interface WireSupport {
  type: 'support';
  message: string;
  from?: string;
  who?: string;
  topic?: string;
  version?: string;
  anon_id?: string;
  account_id?: string;
  source?: WireSource;
}

export type WireItem = WireEvent | WireIdentify | WireSubscribe | WireUnsubscribe | WireSupport;

/** POST /api/v1/events with several items (up to MAX_BATCH_ITEMS), answered item by item. */
export interface WireBatch {
  events: WireItem[];
}

/** A website form's hidden fields: filled (a bot did), the post is answered as usual and thrown away. */
export interface WireHoneypot {
  hp?: unknown;
  website?: unknown;
}

/** POST /api/in/{public_key}/event. */
export interface WirePublicEvent extends WireEvent, WireHoneypot {}

/** POST /api/in/{public_key}/identify: the action is the address's, so type may be left out. */
export interface WirePublicIdentify extends Omit<WireIdentify, 'type'>, WireHoneypot {
  type?: 'identify';
}

/** POST /api/in/{public_key}/subscribe: consent.text is required here. */
export interface WirePublicSubscribe extends Omit<WireSubscribe, 'type'>, WireHoneypot {
  type?: 'subscribe';
}

/** POST /api/in/{public_key}/support. */
export interface WirePublicSupport extends Omit<WireSupport, 'type'>, WireHoneypot {
  type?: 'support';
}

/**
 * POST /api/in/{public_key}/{action} from a browser: an event item for the event action; for
 * subscribe, identify and support the item, whose type the action names.
 */
export type WirePublicPost = WirePublicEvent | WirePublicSubscribe | WirePublicIdentify | WirePublicSupport;
