// The rules of people's sessions, email links and connectors' tokens, as pure functions.
// docs/security.md#sessions-and-tokens has the threat model these serve.
import { createHash } from 'node:crypto';
import { randomBase62 } from '@app/platform/plain';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** A session ends after 12 hours without a request, and 7 days after it began whatever happens. */
export const SESSION_IDLE_MS = 12 * HOUR_MS;
export const SESSION_MAX_MS = 7 * 24 * HOUR_MS;
/** A session's last request is written at most this often (a request reads it every time). */
export const SESSION_SEEN_EVERY_MS = MINUTE_MS;
/** An email link works once, within 15 minutes. */
export const SIGN_IN_LINK_MS = 15 * MINUTE_MS;
/** An authorization code works once, within a minute (OAuth 2.1 recommends short lives). */
export const CODE_MS = MINUTE_MS;
/** Access tokens live an hour; refresh tokens 30 days, each used once (rotation). */
export const ACCESS_TOKEN_MS = HOUR_MS;
export const REFRESH_TOKEN_MS = 30 * 24 * HOUR_MS;

/** The session cookie: HttpOnly, SameSite=Lax, Secure under https. */
export const SESSION_COOKIE = 'lifeline_session';

/** What each secret starts with, so a leaked one is recognised (and secret scanners can match them). */
export const TOKEN_PREFIXES = { session: 'lls_', link: 'lll_', code: 'llc_', access: 'lla_', refresh: 'llr_' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIXES;

/** A new secret of this kind: 43 base62 characters (256 bits) after its prefix. */
export function newToken(kind: TokenKind): string {
  return TOKEN_PREFIXES[kind] + randomBase62(43);
}

/** How a secret is stored: its SHA-256, so the table alone lets no one in. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function isTokenOf(kind: TokenKind, token: string): boolean {
  return token.startsWith(TOKEN_PREFIXES[kind]) && token.length === TOKEN_PREFIXES[kind].length + 43;
}

/** A session as read with what it depends on (its member, its key, the operator token it began with). */
export interface SessionState {
  via: 'key' | 'email' | 'operator';
  seen_at: Date;
  ends_at: Date;
  /** A member session: its member removed (or none picked yet: null member). */
  member_removed: boolean | null;
  /** A key session: its key revoked. */
  key_revoked: boolean | null;
  operator_hash: string | null;
}

/**
 * Why a session no longer lets anyone in, or null while it does: run out (idle or absolute), its
 * member removed, its key revoked, or the operator token changed since it began.
 */
export function sessionRefusal(s: SessionState, now: number, adminTokenHash: string | null): string | null {
  if (now >= s.ends_at.getTime()) return 'ended';
  if (now - s.seen_at.getTime() >= SESSION_IDLE_MS) return 'idle';
  if (s.via === 'key' && s.key_revoked !== false) return 'key revoked';
  if (s.via !== 'operator' && s.member_removed === true) return 'member removed';
  if (s.via === 'operator' && (!adminTokenHash || s.operator_hash !== adminTokenHash)) return 'operator token changed';
  return null;
}

/**
 * Where a sign-in may send the browser afterwards: a path of this service only (no scheme, no host,
 * no `//`), else the signed-in page. Stops a sign-in link from being an open redirect.
 */
export function safeNext(next: unknown): string {
  if (
    typeof next !== 'string' ||
    !next.startsWith('/') ||
    next.startsWith('//') ||
    next.includes('\\') ||
    next.length > 2000
  )
    return '/sign-in';
  return next;
}

/** The longest address a connector may give (a redirect address, its site, its policy page). */
const ADDRESS_MAX_CHARS = 2000;

/**
 * An address a connector may give (MCP authorization, OAuth 2.1 section 2.3.1): https, or http to a
 * loopback address only (a native client's local listener); at most 2,000 characters.
 */
export function webAddressRefusal(uri: string): string | null {
  if (uri.length > ADDRESS_MAX_CHARS) return `${uri.slice(0, 100)}… is longer than ${ADDRESS_MAX_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri.slice(0, 100)} is not an address`;
  }
  if (url.protocol === 'https:') return null;
  const loopback = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  if (url.protocol === 'http:' && loopback) return null;
  return `${uri.slice(0, 100)} must be https, or http to a loopback address (127.0.0.1, [::1], localhost)`;
}

/** A redirect address a connector may register or present: a web address as above, with no fragment (not even `#`). */
export function redirectUriRefusal(uri: string): string | null {
  if (uri.includes('#')) return `${uri.slice(0, 100)} has a fragment, which a redirect address may not`;
  return webAddressRefusal(uri);
}

/** RFC 7636 section 4.2: a code_challenge is 43 to 128 characters of letters, digits, `-`, `.`, `_` and `~`. */
export function isCodeChallenge(value: string): boolean {
  return /^[A-Za-z0-9._~-]{43,128}$/.test(value);
}

/** The one resource this server issues tokens for: its tool door (RFC 8707). */
export function toolDoorResource(baseUrl: string): string {
  return `${baseUrl}/api/mcp`;
}

/** A resource indicator names the tool door when it is that address (a trailing slash aside). */
export function isToolDoorResource(resource: string | undefined, baseUrl: string): boolean {
  if (!resource) return false;
  return resource.replace(/\/+$/, '') === toolDoorResource(baseUrl);
}

/** The session token of a Cookie header, if it carries one. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * The CSRF defence of a request that a session cookie authenticates (GraphQL): a POST, with a JSON
 * content type (which no HTML form can send), from a page whose Origin is this service's own. Null when
 * it passes, else why not.
 */
export function crossSiteRefusal(
  req: { method: string; contentType: string | undefined; origin: string | undefined },
  baseUrl: string,
): string | null {
  if (req.method !== 'POST') return 'a signed-in request must be a POST';
  if (!/^application\/(graphql-response\+)?json\b/i.test(req.contentType ?? ''))
    return 'a signed-in request must send Content-Type: application/json';
  if (req.origin !== new URL(baseUrl).origin)
    return `a signed-in request must come from this service's own pages (Origin ${new URL(baseUrl).origin})`;
  return null;
}
