// docs/rest.md#events: the built-in event names, and which names are reserved.
import { Refusal } from '@app/platform/plain';

/** Exactly the catalogue's twenty names, in its order. */
export const BUILT_IN_EVENTS = [
  'pageview',
  'configure',
  'cta_click',
  'waitlist_cta',
  'measure_cta',
  'download',
  'activated',
  'signup',
  'trial_started',
  'purchase',
  'credit_purchase',
  'churned',
  'subscription_cancelled',
  'subscription_started',
  'subscription_renewed',
  'refund',
  'checkout_abandoned',
  'sign_in',
  'account_deleted',
  'github_star',
] as const;
export type BuiltInEvent = (typeof BUILT_IN_EVENTS)[number];

/** Item types of the events endpoint that are actions, not events. */
export const ACTIONS = ['identify', 'subscribe', 'unsubscribe', 'support'] as const;
export type Action = (typeof ACTIONS)[number];

/** Timeline kinds the service writes itself. */
export const TIMELINE_KINDS = [
  'email_sent',
  'email_received',
  'note',
  'stage_changed',
  'subscribed',
  'unsubscribed',
  'merged',
  'test',
  'automation',
  'support',
] as const;

/**
 * What can happen to a person (the outbox's happening kinds); each is also an outgoing webhook trigger
 * of the same name. Automations list triggers and event names side by side, so a custom event may not
 * take a trigger's name. email_in is made by messaging, from a reply; segment_entered and segment_left by a
 * live segment's membership (docs/webhooks.md#triggers-and-bodies).
 */
export const TRIGGER_NAMES = [
  'stage_entered',
  'subscribed',
  'unsubscribed',
  'event',
  'email_in',
  'field_changed',
  'person_erased',
  'segment_entered',
  'segment_left',
] as const;
export type HappeningKind = (typeof TRIGGER_NAMES)[number];

/** Names a custom event may not take. Kept in one place; GET /api/v1/events shows it. */
export const RESERVED_EVENT_NAMES: readonly string[] = [
  ...new Set<string>([...BUILT_IN_EVENTS, ...ACTIONS, ...TIMELINE_KINDS, ...TRIGGER_NAMES]),
];

/** The catalogue's "Posted by: tag" names, the ones the website tag sends by itself. */
export const TAG_EVENTS: readonly BuiltInEvent[] = [
  'pageview',
  'configure',
  'cta_click',
  'waitlist_cta',
  'measure_cta',
  'download',
];

/**
 * Names the public key may post, at the website endpoints and through Segment's routes: the tag's own. The public
 * key is in every page of a site and the Origin check stops browsers only, so a name a server posts (signup,
 * purchase, subscription_cancelled…) comes with the secret key (docs/rest.md#website-endpoints).
 */
export const PUBLIC_EVENTS: readonly string[] = TAG_EVENTS;

export const CUSTOM_NAME_PATTERN = /^[a-z0-9_]{2,40}$/;

const BUILT_IN: ReadonlySet<string> = new Set(BUILT_IN_EVENTS);
const RESERVED: ReadonlySet<string> = new Set(RESERVED_EVENT_NAMES);
const PUBLIC: ReadonlySet<string> = new Set(PUBLIC_EVENTS);

export function isBuiltInEvent(name: string): name is BuiltInEvent {
  return BUILT_IN.has(name);
}

export function isAction(name: unknown): name is Action {
  return typeof name === 'string' && (ACTIONS as readonly string[]).includes(name);
}

/**
 * built_in, custom, or a Refusal: unknown_event when the name is missing, not a string or not
 * 2 to 40 of a-z, 0-9 and _; reserved_event_name for a reserved name that is not built in.
 */
export function classifyEventName(name: unknown): 'built_in' | 'custom' | Refusal {
  if (typeof name !== 'string' || name === '') {
    return new Refusal(
      'unknown_event',
      'Name the event in type: a built-in name such as signup, or a custom name of 2 to 40 of a-z, 0-9 and _.',
    );
  }
  if (BUILT_IN.has(name)) return 'built_in';
  if (RESERVED.has(name)) {
    return new Refusal(
      'reserved_event_name',
      `"${name}" is a name the service uses itself: choose another name for your custom event.`,
    );
  }
  if (!CUSTOM_NAME_PATTERN.test(name)) {
    return new Refusal(
      'unknown_event',
      `"${name.slice(0, 60)}" is not an event name: use a built-in name or 2 to 40 lowercase letters, digits ` +
        `and underscores.`,
    );
  }
  return 'custom';
}

/**
 * The public key's extra rule: only the names the tag posts. A built-in name a server posts and a custom name are
 * both unknown_event, each with its own sentence.
 */
export function publicEventRefusal(name: string): Refusal | null {
  if (PUBLIC.has(name)) return null;
  if (BUILT_IN.has(name)) {
    return new Refusal(
      'unknown_event',
      `"${name}" must come from a server: post it with the secret key to POST /api/v1/events. The public key ` +
        `takes only what the tag posts (${TAG_EVENTS.join(', ')}).`,
    );
  }
  return new Refusal(
    'unknown_event',
    `"${name.slice(0, 60)}" is not a built-in event name: custom names are accepted only from servers, with a ` +
      `secret key.`,
  );
}
