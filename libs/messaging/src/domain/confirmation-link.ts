// The link of a double opt-in's confirmation email (docs/security.md#the-confirmation-link): it names one pending
// subscription (workspace, person, list), and the HMAC under a key derived from APP_SECRET for this use alone means it
// cannot be made, changed, or taken for a preferences link. Its GET shows a Confirm button; only that button's POST
// confirms, while the subscription is pending (at most 30 days).
import { createHmac } from 'node:crypto';
import { sameSecret } from '@app/platform/plain';

export interface ConfirmationLink {
  workspaceId: string;
  personId: string;
  listId: string;
}

/** The path under BASE_URL where the confirmation page and its Confirm POST are answered. */
export const CONFIRM_PATH = '/confirm';

/** The workspace's template of this name, when it has one, is the confirmation email; else the default below. */
export const CONFIRMATION_TEMPLATE = 'confirm-subscription';

export const DEFAULT_CONFIRMATION = {
  subject: 'Confirm your subscription to {{ list.name }}',
  body:
    'Hello {{ person.first_name }},\n\nPlease confirm that you want to receive {{ list.name }} from ' +
    '{{ workspace.name }}:\n\n[Confirm my subscription]({{ confirm_url }})\n\nIf you did not ask for it, ignore this ' +
    'email: without your confirmation you are not subscribed.',
};

const ID = /^[A-Za-z0-9_-]{1,80}$/;

const mac = (body: string, secret: string) =>
  createHmac('sha256', `confirm-subscription:${secret}`).update(body).digest('base64url');

/** The whole address: {BASE_URL}/confirm/{ids}.{signature}. */
export function confirmationUrl(baseUrl: string, link: ConfirmationLink, secret: string): string {
  const body = Buffer.from([link.workspaceId, link.personId, link.listId].join('.')).toString('base64url');
  return `${baseUrl.replace(/\/+$/, '')}${CONFIRM_PATH}/${body}.${mac(body, secret)}`;
}

/** The link's ids, or null when the token was not signed here (tampered, truncated, or made under another secret). */
export function openConfirmationLink(token: string, secret: string): ConfirmationLink | null {
  if (token.length > 400) return null;
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined || !sameSecret(signature, mac(body, secret))) return null;
  const ids = Buffer.from(body, 'base64url').toString('utf8').split('.');
  if (ids.length !== 3 || !ids.every((id) => ID.test(id))) return null;
  const [workspaceId, personId, listId] = ids;
  return { workspaceId, personId, listId };
}
