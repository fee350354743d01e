// docs/rest.md#third-party-doors, the payment row (Stripe): a verified Stripe event -> items. The person is
// named by every key the object carries: the customer's email and the Stripe customer id (cus_…) as
// account_id, so a checkout (which carries both) joins them and a later subscription event that
// carries only the customer id finds the same person. The event id is the idempotency key.
import { wholeUnits } from './money';
import {
  DoorItem,
  DoorMapping,
  eventItem,
  ignored,
  instant,
  isObject,
  Obj,
  objectAt,
  personKeys,
  text,
} from './door-items';

function customerId(o: Obj): string | undefined {
  return text(o.customer) ?? (isObject(o.customer) ? text(o.customer.id) : undefined);
}

function emailOf(o: Obj): string | undefined {
  return (
    text(objectAt(o, 'customer_details').email) ??
    text(o.customer_email) ??
    text(objectAt(o, 'billing_details').email) ??
    text(o.receipt_email) ??
    text(o.email)
  );
}

/** The subscription's first price, for the timeline (the money itself arrives with the purchase). */
function planOf(subscription: Obj): Obj {
  const first = Array.isArray(objectAt(subscription, 'items').data)
    ? (objectAt(subscription, 'items').data as unknown[])[0]
    : undefined;
  const price = objectAt(first, 'price');
  return {
    subscription: text(subscription.id),
    price: text(price.id),
    plan: text(price.nickname) ?? text(price.lookup_key),
    status: text(subscription.status),
  };
}

type Mapper = (o: Obj, event: Obj) => { type: string; value?: number; properties?: Obj } | null;

const MAPPERS: Partial<Record<string, Mapper>> = {
  'checkout.session.completed': (o) =>
    o.payment_status === 'paid'
      ? {
          type: 'purchase',
          value: wholeUnits(o.amount_total, o.currency),
          properties: { checkout: text(o.id), mode: text(o.mode), currency: text(o.currency) },
        }
      : null,
  'checkout.session.expired': (o) => ({
    type: 'checkout_abandoned',
    value: wholeUnits(o.amount_total, o.currency),
    properties: { checkout: text(o.id), currency: text(o.currency) },
  }),
  'customer.subscription.created': (o) => ({
    type: o.status === 'trialing' ? 'trial_started' : 'subscription_started',
    properties: planOf(o),
  }),
  'customer.subscription.deleted': (o) => ({ type: 'subscription_cancelled', properties: planOf(o) }),
  'invoice.paid': (o) =>
    o.billing_reason === 'subscription_cycle'
      ? {
          type: 'subscription_renewed',
          value: wholeUnits(o.amount_paid, o.currency),
          properties: { invoice: text(o.id), currency: text(o.currency) },
        }
      : null,
  // amount_refunded is the charge's running total; the part refunded now is what it grew by.
  'charge.refunded': (o, event) => {
    const before = objectAt(event.data, 'previous_attributes').amount_refunded;
    const refunded =
      typeof o.amount_refunded === 'number' ? o.amount_refunded - (typeof before === 'number' ? before : 0) : undefined;
    return {
      type: 'refund',
      value: wholeUnits(refunded, o.currency),
      properties: { charge: text(o.id), currency: text(o.currency) },
    };
  },
};

/** A verified Stripe event (`stripe.webhooks.constructEvent`'s answer) -> the items it becomes. */
export function paymentItems(event: unknown): DoorMapping {
  const type = isObject(event) ? (text(event.type) ?? 'unknown') : 'unknown';
  const mapper = MAPPERS[type];
  const object = objectAt(objectAt(event, 'data'), 'object');
  const mapped = mapper && isObject(event) ? mapper(object, event) : null;
  const person = personKeys(emailOf(object), customerId(object));
  if (!mapped || !person || !isObject(event)) return ignored(type);
  const item: DoorItem = eventItem(
    mapped.type,
    person,
    { key: `payment:${text(event.id)}`, occurredAt: instant(event.created) },
    mapped,
  );
  return { type, items: [item] };
}
