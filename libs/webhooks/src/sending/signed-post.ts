// The one way a signed body leaves the service: outgoing webhook attempts and automation http_request
// steps both post through postSigned (interface.md "Delivery rules": Headers; "Automation http_request
// step": the same body and signature scheme). Beside the spec's X-Service-* headers every post carries
// the Standard Webhooks headers (decisions.md section 6, "Beyond the spec"), signed at send time, so
// a retry carries a new webhook-timestamp over the same body bytes.
import { signBody, signStandard } from '../domain/signature';
import { PostOutcome, safePost, SafePostOptions } from './safe-post';

export interface SignedBody {
  /** The delivery id: X-Service-Delivery and webhook-id. */
  id: string;
  /** The trigger, test or automation: X-Service-Event. */
  type: string;
  /** The exact bytes to send (stored, so every attempt sends the same). */
  body: string;
}

export interface SigningSecrets {
  /** The secret in force (shown at creation or by the latest rotation). */
  secret: string;
  /** The secret a rotation replaced, while it still signs (24 hours). */
  previous?: string | null;
}

/**
 * The headers of one post. X-Service-Signature carries a single HMAC, so during a rotation it stays
 * under the previous secret (receivers not yet updated keep working); webhook-signature carries both.
 */
export function signedHeaders(post: SignedBody, secrets: SigningSecrets, nowMs = Date.now()): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  const all = secrets.previous ? [secrets.secret, secrets.previous] : [secrets.secret];
  return {
    'X-Service-Delivery': post.id,
    'X-Service-Event': post.type,
    'X-Service-Signature': signBody(secrets.previous ?? secrets.secret, post.body),
    'webhook-id': post.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandard(all, post.id, timestamp, post.body),
  };
}

/** Signs (now) and posts one body; never throws (see safePost). */
export function postSigned(url: string, post: SignedBody, secrets: SigningSecrets, opts: SafePostOptions): Promise<PostOutcome> {
  return safePost(url, post.body, signedHeaders(post, secrets), opts);
}
