// docs/rest.md#third-party-doors, the auth_a row (Clerk): a verified Clerk webhook -> items. The Clerk user id
// (user_…) is the account_id, so session.created and user.deleted, which carry only that id, find the
// person user.created named by email. The webhook-id (svix-id) is the idempotency key.
import { DoorMapping, eventItem, identifyItem, ignored, instant, isObject, Obj, personKeys, text } from './door-items';

function primaryEmail(user: Obj): string | undefined {
  const addresses = Array.isArray(user.email_addresses) ? user.email_addresses.filter(isObject) : [];
  const primary = addresses.find((a) => a.id === user.primary_email_address_id) ?? addresses[0];
  return text(primary?.email_address);
}

function nameOf(user: Obj): string | undefined {
  const full = [text(user.first_name), text(user.last_name)].filter(Boolean).join(' ');
  return full || text(user.username);
}

/** A verified Clerk payload { type, data, timestamp, ... } and its webhook-id -> the items it becomes. */
export function authAItems(payload: unknown, deliveryId: string): DoorMapping {
  const type = isObject(payload) ? (text(payload.type) ?? 'unknown') : 'unknown';
  const data = isObject(payload) && isObject(payload.data) ? payload.data : {};
  const at = {
    key: `auth_a:${deliveryId}`,
    occurredAt: instant(data.created_at, 'ms') ?? instant(isObject(payload) ? payload.timestamp : undefined, 'ms'),
  };
  if (type === 'user.created') {
    const person = personKeys(primaryEmail(data), data.id);
    if (!person) return ignored(type);
    return { type, items: [...identifyItem(person, nameOf(data)), eventItem('signup', person, at)] };
  }
  if (type === 'session.created') {
    const person = personKeys(undefined, data.user_id);
    return person ? { type, items: [eventItem('sign_in', person, at)] } : ignored(type);
  }
  if (type === 'user.deleted') {
    const person = personKeys(undefined, data.id);
    // A deleted user's payload has no created_at: the event happened when the webhook was sent.
    return person
      ? {
          type,
          items: [
            eventItem('account_deleted', person, {
              ...at,
              occurredAt: instant(isObject(payload) ? payload.timestamp : undefined, 'ms'),
            }),
          ],
        }
      : ignored(type);
  }
  return ignored(type);
}
