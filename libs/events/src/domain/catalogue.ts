// interface.md "Event catalogue" and decisions.md section 5: names, and which are reserved.
import { Refusal } from '@app/core';

export const BUILT_IN_EVENTS = [
  'pageview', 'configure', 'cta_click', 'waitlist_cta', 'measure_cta', 'download', 'activated', 'signup',
  'trial_started', 'purchase', 'credit_purchase', 'churned', 'subscription_cancelled', 'subscription_started',
  'subscription_renewed', 'refund', 'checkout_abandoned', 'sign_in', 'account_deleted', 'github_star',
] as const;

export const ACTIONS = ['identify', 'subscribe', 'support'] as const;

/** Timeline kinds the service writes itself. */
export const TIMELINE_KINDS = [
  'email_sent', 'email_received', 'note', 'stage_changed', 'subscribed', 'unsubscribed', 'merged', 'test', 'automation', 'support',
] as const;

/** Kept in one place; GET /api/v1/events shows it. */
export const RESERVED_EVENT_NAMES: readonly string[] = [...new Set<string>([...BUILT_IN_EVENTS, ...ACTIONS, ...TIMELINE_KINDS])];

/**
 * Names the public website endpoint accepts: every built-in name. The catalogue's "Posted by" column
 * says who usually posts each, but the public rule is only "only built-in names".
 */
export const PUBLIC_EVENTS: readonly string[] = BUILT_IN_EVENTS;

export const CUSTOM_NAME_PATTERN = /^[a-z0-9_]{2,40}$/;

const BUILT_IN: ReadonlySet<string> = new Set(BUILT_IN_EVENTS);
const RESERVED: ReadonlySet<string> = new Set(RESERVED_EVENT_NAMES);

export function isBuiltInEvent(name: string): boolean {
  return BUILT_IN.has(name);
}

export function classifyEventName(name: unknown): 'built_in' | 'custom' | Refusal {
  if (typeof name !== 'string' || name === '') {
    return new Refusal('unknown_event', 'Name the event in type: a built-in name such as signup, or a custom name of 2 to 40 of a-z, 0-9 and _.');
  }
  if (BUILT_IN.has(name)) return 'built_in';
  if (RESERVED.has(name)) {
    return new Refusal('reserved_event_name', `"${name}" is a name the service uses itself: choose another custom name.`);
  }
  if (!CUSTOM_NAME_PATTERN.test(name)) {
    return new Refusal('unknown_event', `"${name.slice(0, 60)}" is not an event name: custom names are 2 to 40 lowercase letters, digits and underscores.`);
  }
  return 'custom';
}
