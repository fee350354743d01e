// The footer every broadcast carries (docs/graphql.md#broadcasts): the workspace's postal address and the link
// to leave, in both parts of the email.
import { escapeHtml } from '@app/platform/plain';
import type { RenderedMessage } from '../../domain/template';

/** The rendered email with its footer: the address's lines kept, the link the one List-Unsubscribe names. */
export function withFooter(rendered: RenderedMessage, postalAddress: string, leaveUrl: string): RenderedMessage {
  const lines = postalAddress.split(/\r?\n/).map((line) => line.trim());
  const html =
    `<hr><p style="font-size:12px;color:#666">${lines.map(escapeHtml).join('<br>')}<br>` +
    `<a href="${escapeHtml(leaveUrl)}">Unsubscribe or change your email preferences</a></p>`;
  const text = `--\n${lines.join('\n')}\nUnsubscribe or change your email preferences: ${leaveUrl}`;
  return { subject: rendered.subject, html: `${rendered.html}\n${html}`, text: `${rendered.text}\n\n${text}` };
}
