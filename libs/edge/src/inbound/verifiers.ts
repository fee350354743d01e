// The inbound signature schemes, one entry each (style guide "one door pipeline"; the shape of
// trigger.dev's webhook verification registry). The email door and the third-party doors name an
// entry and hand it the post and the door's key; a refusal carries the entry's fix sentence.
import type { JWTVerifyGetKey } from 'jose';
import { Refusal } from '@app/platform';
import { verifyHubSignature } from './github-hmac.verifier';
import { InboundPost, Verified } from './inbound-post';
import { verifyJwtBody } from './jwt-jwks.verifier';
import { verifyStandardWebhook } from './standard-webhooks.verifier';
import { verifyStripeSignature } from './stripe.verifier';

/** What a door holds to check a post: a shared secret, or a key set for signed tokens. */
export type VerifierKey = { secret: string } | { keys: JWTVerifyGetKey };

interface InboundVerifier {
  verify(post: InboundPost, key: VerifierKey): Verified | null | Promise<Verified | null>;
  /** The sentence of the 401, naming the fix. */
  fix: string;
}

const secretOf = (key: VerifierKey) => ('secret' in key ? key.secret : null);

export const INBOUND_VERIFIERS = {
  standard_webhooks: {
    verify: (post, key) => (secretOf(key) ? verifyStandardWebhook(post, secretOf(key)!) : null),
    fix:
      'Sign the post with the whsec_ secret this door was connected with, send the body unchanged with its ' +
      'webhook-id, webhook-timestamp and webhook-signature (or svix-*) headers, within five minutes.',
  },
  stripe: {
    verify: (post, key) => (secretOf(key) ? verifyStripeSignature(post, secretOf(key)!) : null),
    fix:
      'Sign the post with the whsec_ signing secret this door was connected with, send the body unchanged with ' +
      'its Stripe-Signature header, within five minutes.',
  },
  github_hmac: {
    verify: (post, key) => (secretOf(key) ? verifyHubSignature(post, secretOf(key)!) : null),
    fix:
      'Sign the post with the secret this door was connected with and send the body unchanged with its ' +
      'X-Hub-Signature-256 or X-Hub-Signature header.',
  },
  jwt_jwks: {
    verify: (post, key) => ('keys' in key ? verifyJwtBody(post, key.keys) : null),
    fix:
      'Post the RS256 token unchanged, signed with a key of the domain this door was connected with, within five ' +
      'minutes of issuing it.',
  },
} satisfies Record<string, InboundVerifier>;

export type InboundVerifierKind = keyof typeof INBOUND_VERIFIERS;

/** Verifies before anything parses the body: the payload, or invalid_signature (401) naming the fix. */
export async function verifyInbound(
  kind: InboundVerifierKind,
  post: InboundPost,
  key: VerifierKey,
  fix?: string,
): Promise<Verified | Refusal> {
  const entry: InboundVerifier = INBOUND_VERIFIERS[kind];
  const verified = await entry.verify(post, key);
  return verified ?? new Refusal('invalid_signature', fix ?? entry.fix);
}
