// The signed link every email to a workspace's people carries (docs/security.md#the-preferences-link): in
// List-Unsubscribe, where a one-click POST takes the person off the lists it names and opts them out of email, and
// as {{ preferences_url }}, where a GET shows their preference page. It names one person of one workspace, and one
// list for mail sent to a list; the HMAC under a key derived from APP_SECRET means it cannot be made or changed.
import { openToken, signToken } from '@app/platform/plain';

export interface PreferencesLink {
  workspaceId: string;
  personId: string;
  /** Mail sent to a list: one-click takes the person off that list only. */
  listId?: string;
}

/** The path under BASE_URL where the link's page and its one-click POST are answered. */
export const PREFERENCES_PATH = '/preferences';

const ID = /^[A-Za-z0-9_-]{1,80}$/;

/** The token part of the link: the ids, then their signature. */
export function signPreferencesLink(link: PreferencesLink, secret: string): string {
  const ids = [link.workspaceId, link.personId, ...(link.listId ? [link.listId] : [])];
  return signToken('preferences', ids.join('.'), secret);
}

/** The whole address: {BASE_URL}/preferences/{token}. */
export function preferencesUrl(baseUrl: string, link: PreferencesLink, secret: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${PREFERENCES_PATH}/${signPreferencesLink(link, secret)}`;
}

/** The link's ids, or null when the token was not signed here (tampered, truncated, or made under another secret). */
export function openPreferencesLink(token: string, secret: string): PreferencesLink | null {
  const ids = openToken('preferences', token, secret, 400)?.split('.');
  if (!ids || ids.length < 2 || ids.length > 3 || !ids.every((id) => ID.test(id))) return null;
  const [workspaceId, personId, listId] = ids;
  return listId ? { workspaceId, personId, listId } : { workspaceId, personId };
}

/**
 * The headers of RFC 2369 and RFC 8058: the address to unsubscribe at, and that a POST of
 * `List-Unsubscribe=One-Click` to it is enough (no page, no cookie).
 */
export function listUnsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Whether a form body is RFC 8058's one-click POST. */
export function isOneClick(body: unknown): boolean {
  return (
    typeof body === 'object' && body !== null && (body as Record<string, unknown>)['List-Unsubscribe'] === 'One-Click'
  );
}
