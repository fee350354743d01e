// The double opt-in's confirmation page (docs/security.md#the-confirmation-link): the workspace and the list, and a
// Confirm button whose POST alone confirms; the GET that shows it changes nothing, so a mail scanner opening the link
// subscribes nobody. No script, as every page here.
import { escapeHtml, renderPage } from './page';

export interface ConfirmationPageInput {
  workspaceName: string;
  listName: string;
  /** pending: the Confirm button; subscribed: already confirmed. */
  status: 'pending' | 'subscribed';
  /** The page's own path, which the button posts to. */
  action: string;
  notice?: string | null;
}

export function renderConfirmationPage(p: ConfirmationPageInput): string {
  const from = p.workspaceName ? ` from ${escapeHtml(p.workspaceName)}` : '';
  const list = `<strong>${escapeHtml(p.listName)}</strong>`;
  const body =
    p.status === 'pending'
      ? `<h1>Confirm your subscription</h1>
<p>Press Confirm to receive ${list}${from}. Until you do, you are not subscribed.</p>
<form method="post" action="${escapeHtml(p.action)}"><button type="submit" name="confirm" value="yes">Confirm</button></form>`
      : `<h1>You are subscribed</h1>
<p>You receive ${list}${from}.</p>`;
  return renderPage({ title: 'Confirm your subscription', body, notice: p.notice });
}

/** A page with only a sentence: a link that is not valid or no longer waits. */
export function renderConfirmationNote(alert: string): string {
  return renderPage({ title: 'Confirm your subscription', body: '<h1>Nothing to confirm</h1>', alert });
}
