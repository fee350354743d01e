// decisions.md section 4 and interface.md rule 4: a person is engaged by a purchase or
// credit_purchase, signup, support post, email reply, or joining a list.

/** Events that make the person who did them engaged. */
export const ENGAGING_EVENTS: readonly string[] = ['purchase', 'credit_purchase', 'signup'];

/**
 * Actions that engage through their own code path rather than an event: a support post, an email
 * reply and a list join. The values are the timeline kinds those actions write.
 */
export const ENGAGING_ACTIONS = {
  supportPost: 'support',
  emailReply: 'email_received',
  listJoin: 'subscribed',
} as const;

export function isEngagingEvent(type: string): boolean {
  return ENGAGING_EVENTS.includes(type);
}

/** The timeline kinds that mark a person engaged: the engaging events and the actions' own rows. */
export const ENGAGING_TIMELINE_KINDS: readonly string[] = [...ENGAGING_EVENTS, ...Object.values(ENGAGING_ACTIONS)];
