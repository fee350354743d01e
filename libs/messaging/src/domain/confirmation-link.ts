// The link of a double opt-in's confirmation email (docs/security.md#the-confirmation-link): it names one pending
// subscription (workspace, person, list), and the HMAC under a key derived from APP_SECRET for this use alone means it
// cannot be made, changed, or taken for a preferences link. Its GET shows a Confirm button; only that button's POST
// confirms, while the subscription is pending (at most 30 days).
import { openToken, signToken } from '@app/platform/plain';

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

/** The whole address: {BASE_URL}/confirm/{ids}.{signature}. */
export function confirmationUrl(baseUrl: string, link: ConfirmationLink, secret: string): string {
  const token = signToken('confirm-subscription', [link.workspaceId, link.personId, link.listId].join('.'), secret);
  return `${baseUrl.replace(/\/+$/, '')}${CONFIRM_PATH}/${token}`;
}

/** The link's ids, or null when the token was not signed here (tampered, truncated, or made under another secret). */
export function openConfirmationLink(token: string, secret: string): ConfirmationLink | null {
  const ids = openToken('confirm-subscription', token, secret, 400)?.split('.');
  if (!ids || ids.length !== 3 || !ids.every((id) => ID.test(id))) return null;
  const [workspaceId, personId, listId] = ids;
  return { workspaceId, personId, listId };
}
