// Stripe's Stripe-Signature header: t={timestamp},v1={HMAC-SHA256 of "{t}.{body}"}, checked by the
// `stripe` package over the exact bytes with five minutes of tolerance (interface.md "Limits").
import Stripe from 'stripe';
import { headerValue, InboundPost, Verified } from './inbound-post';

export const STRIPE_TOLERANCE_SECONDS = 300;

export function verifyStripeSignature(post: InboundPost, secret: string): Verified | null {
  const header = headerValue(post.headers, 'stripe-signature');
  if (!header) return null;
  try {
    const event = Stripe.webhooks.constructEvent(post.raw, header, secret, STRIPE_TOLERANCE_SECONDS);
    return { payload: event, deliveryId: event.id };
  } catch {
    return null;
  }
}
