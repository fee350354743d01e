// The authorize request a consent page carries to its decision: signed with APP_SECRET, bound to the
// session that saw the page, and good for ten minutes, so the decision post cannot be forged, replayed
// by another session, or changed (another redirect address or challenge) on its way back.
import { openToken, signToken } from '@app/platform';

export interface ConsentRequest {
  clientId: string;
  redirectUri: string;
  /** The authorize request named redirect_uri itself: the token request must then name it too. */
  redirectUriNamed: boolean;
  challenge: string;
  state?: string;
  scopes: string[];
  resource: string;
  sessionId: string;
  /** ms since epoch after which the decision is refused. */
  until: number;
}

export const CONSENT_MS = 10 * 60_000;

export function signConsent(request: ConsentRequest, secret: string): string {
  return signToken('consent', JSON.stringify(request), secret);
}

/** The request as signed, or null when the signature does not match or it has run out. */
export function openConsent(signed: string, secret: string, now: number): ConsentRequest | null {
  const body = openToken('consent', signed, secret, Number.POSITIVE_INFINITY);
  if (body === null) return null;
  try {
    const request = JSON.parse(body) as ConsentRequest;
    return request.until > now ? request : null;
  } catch {
    return null;
  }
}

/**
 * The redirect that answers an authorize request: its code or error, the client's state, and the issuer as `iss`
 * (RFC 9207), so a client talking to several servers knows which one answered.
 */
export function authorizeRedirect(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries({ ...params, iss: issuer }))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}
