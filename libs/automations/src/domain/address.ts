// interface.md "An automation's own address" and "Authentication" rule 5; decisions.md section 6:
// the address is signed (base64url HMAC-SHA256 under APP_SECRET of `automation:{id}`), and the
// workspace's step secret is derived the same way from `step:{workspace_id}`, never stored.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const ADDRESS_PATH = '/api/webhooks/automation/';
export const STEP_SECRET_PREFIX = 'whsec_';

function hmac(appSecret: string, message: string): Buffer {
  return createHmac('sha256', appSecret).update(message).digest();
}

/** The signature part of an automation's start address. */
export function addressSignature(appSecret: string, automationId: string): string {
  return hmac(appSecret, `automation:${automationId}`).toString('base64url');
}

/** The full start address shown once at creation and to owners and admins on the automation itself. */
export function automationAddress(baseUrl: string, appSecret: string, automationId: string): string {
  return `${baseUrl}${ADDRESS_PATH}${automationId}.${addressSignature(appSecret, automationId)}`;
}

/**
 * The automation id named by the last part of a start address when its signature holds, else null.
 * Compared in constant time; a wrong signature and an unknown id answer alike (404 not_found).
 */
export function verifiedAutomationId(appSecret: string, addressPart: string): string | null {
  const dot = addressPart.lastIndexOf('.');
  if (dot <= 0 || dot === addressPart.length - 1) return null;
  const id = addressPart.slice(0, dot);
  const given = Buffer.from(addressPart.slice(dot + 1), 'base64url');
  const expected = hmac(appSecret, `automation:${id}`);
  // A base64url string of other length decodes to other length: timingSafeEqual needs equal lengths.
  if (given.length !== expected.length) return null;
  return timingSafeEqual(given, expected) && given.toString('base64url') === addressPart.slice(dot + 1) ? id : null;
}

/** The workspace's http_request signing secret, as shown to owners and admins (the HMAC key is this whole string). */
export function stepSecret(appSecret: string, workspaceId: string): string {
  return STEP_SECRET_PREFIX + hmac(appSecret, `step:${workspaceId}`).toString('base64url');
}
