// Stripe's Stripe-Signature header: t={timestamp},v1={HMAC-SHA256 of "{t}.{body}"}, checked by the
// `stripe` package over the exact bytes with five minutes of tolerance (docs/rest.md#third-party-doors). The
// package (about 200 modules) is loaded on the first Stripe post, not by every api and worker at start.
import type Stripe from 'stripe';
import { headerValue, InboundPost, Verified } from './inbound-post';

export const STRIPE_TOLERANCE_SECONDS = 300;

let stripe: typeof Stripe | null = null;

export function verifyStripeSignature(post: InboundPost, secret: string): Verified | null {
  const header = headerValue(post.headers, 'stripe-signature');
  if (!header) return null;
  try {
    stripe ??= require('stripe') as typeof Stripe;
    const event = stripe.webhooks.constructEvent(post.raw, header, secret, STRIPE_TOLERANCE_SECONDS);
    return { payload: event, deliveryId: event.id };
  } catch {
    return null;
  }
}
