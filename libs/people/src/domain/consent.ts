// Consent both ways (docs/rest.md#coming-off-a-list): a subscription keeps the words a person agreed to
// and, once they come off the list, when, how and from where they withdrew.

/** How a withdrawal happened, as subscriptions.withdrawn_via keeps it. */
export const WITHDRAWN_VIA = ['api', 'one_click', 'preferences', 'complaint', 'console', 'bounce'] as const;
export type WithdrawnVia = (typeof WITHDRAWN_VIA)[number];

/** A subscription's status: pending waits for a double opt-in's confirmation. */
export const SUBSCRIPTION_STATUSES = ['subscribed', 'pending', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The statuses a withdrawal takes a subscription from: a pending one is withdrawn too, but nobody came off a list. */
export const WITHDRAWABLE: readonly SubscriptionStatus[] = ['subscribed', 'pending'];

/** Whether a withdrawal from `was` is somebody coming off a list (the unsubscribed trigger and timeline row). */
export function cameOff(was: string): boolean {
  return was === 'subscribed';
}
