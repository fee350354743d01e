import {
  stripeCharge,
  stripeCheckoutSession,
  stripeEvent,
  stripeInvoice,
  stripeSubscription,
} from '../../../../test/support/provider-events';
import { paymentItems } from './payment';

const one = (event: ReturnType<typeof stripeEvent>) => {
  const mapped = paymentItems(event);
  expect(mapped.type).toBe(event.type);
  expect(mapped.items).toHaveLength(1);
  expect(mapped.items[0].idempotency_key).toBe(`payment:${event.id}:${mapped.items[0].type}`);
  expect(mapped.items[0].occurred_at).toBe(new Date(event.created * 1000).toISOString());
  return mapped.items[0];
};

describe('paymentItems: the Stripe events the payment door maps', () => {
  it('checkout.session.completed when paid -> purchase, named by the email and the cus_ id, cents to whole units', () => {
    const item = one(
      stripeEvent(
        'checkout.session.completed',
        stripeCheckoutSession({ email: 'jenny@example.com', customer: 'cus_A', amount: 1999 }),
      ),
    );
    expect(item).toMatchObject({
      type: 'purchase',
      email: 'jenny@example.com',
      account_id: 'cus_A',
      value: 19.99,
      properties: { mode: 'payment', currency: 'usd' },
    });
  });
  it('checkout.session.completed not yet paid (a delayed payment method) is ignored', () => {
    expect(
      paymentItems(stripeEvent('checkout.session.completed', stripeCheckoutSession({ paid: false }))).items,
    ).toEqual([]);
  });
  it('a guest checkout without a customer is named by its email alone', () => {
    const item = one(
      stripeEvent('checkout.session.completed', stripeCheckoutSession({ email: 'guest@example.com', customer: null })),
    );
    expect(item.email).toBe('guest@example.com');
    expect(item).not.toHaveProperty('account_id');
  });
  it('checkout.session.expired -> checkout_abandoned', () => {
    expect(
      one(stripeEvent('checkout.session.expired', stripeCheckoutSession({ paid: false, amount: 5000 }))),
    ).toMatchObject({ type: 'checkout_abandoned', value: 50 });
  });
  it.each([
    ['trialing', 'trial_started'],
    ['active', 'subscription_started'],
    ['incomplete', 'subscription_started'],
  ])('customer.subscription.created with status %s -> %s, named by the cus_ id alone, no value', (status, type) => {
    const item = one(stripeEvent('customer.subscription.created', stripeSubscription({ customer: 'cus_B', status })));
    expect(item).toMatchObject({ type, account_id: 'cus_B', properties: { plan: 'Pro monthly', status } });
    expect(item).not.toHaveProperty('value');
    expect(item).not.toHaveProperty('email');
  });
  it('customer.subscription.deleted -> subscription_cancelled', () => {
    expect(
      one(stripeEvent('customer.subscription.deleted', stripeSubscription({ customer: 'cus_B', status: 'canceled' }))),
    ).toMatchObject({ type: 'subscription_cancelled', account_id: 'cus_B' });
  });
  it('invoice.paid for a renewal (billing_reason subscription_cycle) -> subscription_renewed with the amount paid', () => {
    expect(
      one(stripeEvent('invoice.paid', stripeInvoice({ customer: 'cus_C', email: 'c@example.com', amount: 1200 }))),
    ).toMatchObject({ type: 'subscription_renewed', account_id: 'cus_C', email: 'c@example.com', value: 12 });
  });
  it('invoice.paid for the first invoice of a subscription is ignored (the checkout was the purchase)', () => {
    expect(
      paymentItems(stripeEvent('invoice.paid', stripeInvoice({ customer: 'cus_C', reason: 'subscription_create' })))
        .items,
    ).toEqual([]);
  });
  it('charge.refunded -> refund of the part refunded now', () => {
    expect(
      one(stripeEvent('charge.refunded', stripeCharge({ customer: 'cus_D', amount: 2000, refunded: 2000 }))),
    ).toMatchObject({ type: 'refund', account_id: 'cus_D', value: 20 });
    const second = stripeEvent('charge.refunded', stripeCharge({ customer: 'cus_D', amount: 2000, refunded: 1500 }), {
      previous_attributes: { amount_refunded: 500 },
    });
    expect(one(second).value).toBe(10);
  });
  it.each(['payment_intent.succeeded', 'customer.created', 'invoice.finalized'])(
    '%s is not mapped: ignored',
    (type) => {
      expect(paymentItems(stripeEvent(type, stripeCheckoutSession({})))).toEqual({ type, items: [] });
    },
  );
  it('an object naming nobody is ignored', () => {
    expect(
      paymentItems(stripeEvent('checkout.session.completed', stripeCheckoutSession({ email: null, customer: null })))
        .items,
    ).toEqual([]);
  });
  it.each([null, 'x', {}, { type: 'checkout.session.completed' }])('a malformed event %p is ignored', (event) => {
    expect(paymentItems(event).items).toEqual([]);
  });
});
