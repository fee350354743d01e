// The consent page of the OAuth authorize step: a member allows (or denies) an app to act as them in one
// workspace through the tool door. The decision posts back the signed, opaque request unchanged.
import { escapeHtml, hiddenInput, renderPage } from './page';

export interface ConsentPageInput {
  /** The name the app registered itself under: its own claim, shown as text only. */
  clientName: string;
  /** The site the app says it belongs to; shown as text, never as a link. */
  clientUri?: string | null;
  /** The host the sign-in is sent back to (from the redirect URI). */
  redirectHost: string;
  memberEmail: string;
  workspaceName: string;
  workspaceSlug: string;
  role: string;
  /** The signed authorize request, posted back as is. */
  request: string;
  alert?: string | null;
}

export function renderConsentPage(p: ConsentPageInput): string {
  const client = `<strong>${escapeHtml(p.clientName)}</strong>`;
  const site = p.clientUri ? ` (it gives its site as <code>${escapeHtml(p.clientUri)}</code>)` : '';
  const body = [
    `<h1>Allow ${escapeHtml(p.clientName)}?</h1>`,
    `<p>${client}${site} will act as <strong>${escapeHtml(p.memberEmail)}</strong> (${escapeHtml(p.role)})` +
      ` in the workspace <strong>${escapeHtml(p.workspaceName)}</strong> (<code>${escapeHtml(p.workspaceSlug)}</code>)` +
      ' through the tool door: it can read people and timelines, and send what the tools allow.</p>',
    `<p>Either way, the sign-in goes back to <strong>${escapeHtml(p.redirectHost)}</strong>.</p>`,
    '<form method="post" action="/consent">',
    hiddenInput('request', p.request),
    '<div class="actions">',
    '<button type="submit" name="decision" value="allow">Allow</button>',
    '<button type="submit" name="decision" value="deny" class="secondary">Deny</button>',
    '</div>',
    '</form>',
    '<p class="note">You can disconnect it later with the GraphQL mutation <code>revokeConnectedApp</code>;' +
      ' signing out does not disconnect it.</p>',
  ].join('\n');
  return renderPage({ title: `Allow ${p.clientName}?`, body, alert: p.alert });
}
