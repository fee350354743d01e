// docs/rest.md#third-party-doors, the auth_b row (Kinde): a verified Kinde token's claims -> items. The Kinde
// user id (kp_…) is the account_id, so user.authenticated and user.deleted, which carry only that id,
// find the person user.created named by email. The token's event_id is the idempotency key.
import {
  DoorMapping,
  eventItem,
  identifyItem,
  ignored,
  instant,
  isObject,
  objectAt,
  personKeys,
  text,
} from './door-items';

const EVENT_OF: Record<string, string> = {
  'user.created': 'signup',
  'user.authenticated': 'sign_in',
  'user.deleted': 'account_deleted',
};

/** Verified claims { type, data: { user }, event_id, timestamp, source } and the delivery id -> items. */
export function authBItems(claims: unknown, deliveryId: string): DoorMapping {
  const type = isObject(claims) ? (text(claims.type) ?? 'unknown') : 'unknown';
  const event = EVENT_OF[type];
  const user = objectAt(objectAt(claims, 'data'), 'user');
  const person = personKeys(user.email, user.id);
  if (!event || !person || !isObject(claims)) return ignored(type);
  const at = { key: `auth_b:${deliveryId}`, occurredAt: instant(claims.timestamp) };
  const name = [text(user.first_name), text(user.last_name)].filter(Boolean).join(' ') || undefined;
  return { type, items: [...(event === 'signup' ? identifyItem(person, name) : []), eventItem(event, person, at)] };
}
