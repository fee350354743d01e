// decisions.md section 4: engaged by a purchase or credit_purchase, signup, support post, email reply,
// or joining a list. Support, replies and list joins engage through their own actions.
const ENGAGING_EVENTS: ReadonlySet<string> = new Set(['purchase', 'credit_purchase', 'signup']);

export function isEngagingEvent(type: string): boolean {
  return ENGAGING_EVENTS.has(type);
}
