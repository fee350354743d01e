// docs/rest.md#an-automations-start-address; the step secret of docs/webhooks.md#automation-posts.
// The signatures themselves (automation:{id}, step:{workspace_id}) live with the other APP_SECRET
// derivations in libs/webhooks/src/domain/secret-box.ts; this is the address built and read from them.
import { parseAutomationAddress, signAutomationAddress, verifyAutomationAddress } from '@app/webhooks';

export const ADDRESS_PATH = '/api/webhooks/automation/';

/** The full start address shown once at creation and to owners and admins on the automation itself. */
export function automationAddress(baseUrl: string, appSecret: string, automationId: string): string {
  return `${baseUrl}${ADDRESS_PATH}${automationId}.${signAutomationAddress(appSecret, automationId)}`;
}

/**
 * The automation id named by the last part of a start address when its signature holds, else null
 * (compared in constant time). A wrong signature and an unknown id answer alike: 404 not_found.
 */
export function verifiedAutomationId(appSecret: string, addressPart: string): string | null {
  const parsed = parseAutomationAddress(addressPart);
  return parsed && verifyAutomationAddress(appSecret, parsed.automationId, parsed.signature)
    ? parsed.automationId
    : null;
}
