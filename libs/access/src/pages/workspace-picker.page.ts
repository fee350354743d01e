// The workspace picker: a member of several workspaces chooses the one this sign-in works in.
import { escapeHtml, hiddenInput, renderPage, signOutForm } from './page';

export interface PickerWorkspace {
  id: string;
  name: string;
  slug: string;
  role: string;
  /** The workspace this sign-in works in now. */
  current: boolean;
}

export interface WorkspacePickerInput {
  email: string;
  /** Where to go once a workspace is chosen; carried through every form. */
  next: string;
  workspaces: PickerWorkspace[];
  alert?: string | null;
}

export function renderWorkspacePicker(p: WorkspacePickerInput): string {
  const choices = p.workspaces.length
    ? p.workspaces.map((w) => choiceForm(w, p.next)).join('\n')
    : '<p class="note">You are not a member of any workspace.</p>';
  const body = [
    '<h1>Choose a workspace</h1>',
    `<p>Signed in as <strong>${escapeHtml(p.email)}</strong>.</p>`,
    choices,
    signOutForm(),
  ].join('\n');
  return renderPage({ title: 'Choose a workspace', body, alert: p.alert });
}

function choiceForm(w: PickerWorkspace, next: string): string {
  const label = w.current ? `${w.name} (current)` : w.name;
  return [
    '<form method="post" action="/sign-in/workspace" class="choice">',
    hiddenInput('workspace', w.id),
    hiddenInput('next', next),
    `<button type="submit">${escapeHtml(label)}</button>`,
    `<span class="meta"><code>${escapeHtml(w.slug)}</code> · ${escapeHtml(w.role)}</span>`,
    '</form>',
  ].join('\n');
}
