// The page shown once signed in: who, which workspace, and the ways on (explorer, switch, sign out).
import { escapeHtml, renderPage, signOutForm } from './page';

export interface SignedInPageInput {
  email: string | null;
  operator: boolean;
  workspace: { name: string; slug: string; role: string } | null;
  /** The member belongs to more than one workspace. */
  canSwitch: boolean;
}

export function renderSignedInPage(p: SignedInPageInput): string {
  const who = p.operator ? 'the operator' : p.email ? `<strong>${escapeHtml(p.email)}</strong>` : null;
  const workspace = p.workspace
    ? `<p>Workspace: <strong>${escapeHtml(p.workspace.name)}</strong> (<code>${escapeHtml(p.workspace.slug)}</code>),` +
      ` as ${escapeHtml(p.workspace.role)}.</p>`
    : '<p>No workspace is chosen.</p>';
  const body = [
    '<h1>Signed in</h1>',
    who ? `<p>Signed in as ${who}.</p>` : '',
    workspace,
    '<p><a href="/graphql">Open the GraphQL explorer</a></p>',
    p.canSwitch ? '<p><a href="/sign-in/workspace">Switch workspace</a></p>' : '',
    signOutForm(),
  ]
    .filter((part) => part !== '')
    .join('\n');
  return renderPage({ title: 'Signed in', body });
}
