// docs/rest.md#website-endpoints: the four actions, the honeypot, and the item a browser's
// post becomes (docs/rest.md#answers-and-refusals).
import { Refusal } from '@app/platform';
import { isObject } from '@app/edge/posted-input';

export const PUBLIC_ACTIONS = ['subscribe', 'identify', 'event', 'support'] as const;
export type PublicAction = (typeof PUBLIC_ACTIONS)[number];

/** What a honeypot post is told: the action's usual status. */
export const USUAL_STATUS: Record<PublicAction, string> = {
  subscribe: 'subscribed',
  identify: 'linked',
  event: 'recorded',
  support: 'recorded',
};

const isFilled = (value: unknown) => value !== undefined && value !== null && value !== '';

export function publicAction(action: string): PublicAction | Refusal {
  if ((PUBLIC_ACTIONS as readonly string[]).includes(action)) return action as PublicAction;
  return new Refusal(
    'unknown_action',
    `"${action.slice(0, 40)}" is not an action: post to subscribe, identify, event or support.`,
  );
}

/** A filled hidden field (hp or website) means a bot: accepted and thrown away. */
export function isHoneypot(fields: Record<string, unknown>): boolean {
  return isFilled(fields.hp) || isFilled(fields.website);
}

/**
 * The ingest item of a browser's post; a subscribe carries the visitor's address as proof of consent unless the page
 * sent one.
 */
export function publicItem(
  action: PublicAction,
  body: unknown,
  visitorIp: string | undefined,
): Record<string, unknown> | Refusal {
  if (!isObject(body)) return new Refusal('invalid_json', 'Send one JSON object.');
  if (action === 'event') return body;
  const item: Record<string, unknown> = { ...body, type: action };
  const consent = body.consent;
  if (action === 'subscribe' && isObject(consent) && !('ip' in consent)) item.consent = { ...consent, ip: visitorIp };
  return item;
}
