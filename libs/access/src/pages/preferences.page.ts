// The preference page a person's email links to (docs/rest.md#the-preferences-link): the workspace's name, each list
// they are on or left with the words they agreed to and when, a checkbox per list, Save; and the one-click
// unsubscribe as a button. The page only takes people off lists: joining again is done where they first joined.
import type { PreferenceList } from '@app/messaging';
import { escapeHtml, hiddenInput, renderPage } from './page';

export interface PreferencesPageInput {
  action: string;
  workspaceName: string;
  lists: PreferenceList[];
  optedOutAt: Date | null;
  notice?: string | null;
  alert?: string | null;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

function listChoice(list: PreferenceList, i: number): string {
  const id = `list-${i}`;
  const left = list.pending
    ? ' It waits for you to confirm by the link in the email you were sent.'
    : list.subscribed
      ? ''
      : list.withdrawnAt
        ? ` You left on ${day(list.withdrawnAt)}.`
        : ' You left it.';
  return [
    '<div class="choice">',
    `<input type="checkbox" id="${id}" name="list" value="${escapeHtml(list.id)}"${list.subscribed ? ' checked' : ''}` +
      `${list.subscribed ? '' : ' disabled'} aria-describedby="${id}-consent">`,
    `<label for="${id}">${escapeHtml(list.name)}</label>`,
    '</div>',
    `<p class="meta" id="${id}-consent">On ${day(list.grantedAt)} you agreed to: “${escapeHtml(list.consentText)}”.` +
      `${escapeHtml(left)}</p>`,
  ].join('\n');
}

export function renderPreferencesPage(p: PreferencesPageInput): string {
  const name = escapeHtml(p.workspaceName);
  const lists = p.lists.length
    ? [
        `<form method="post" action="${escapeHtml(p.action)}">`,
        hiddenInput('form', 'preferences'),
        '<fieldset>',
        '<legend>The lists you are on</legend>',
        ...p.lists.map(listChoice),
        '</fieldset>',
        '<p class="note">Untick a list to leave it; the others stay as they are. To join a list you left, sign up ' +
          'again where you first did.</p>',
        '<button type="submit">Save</button>',
        '</form>',
      ]
    : [`<p>You are on no list of ${name}.</p>`];
  const all = p.optedOutAt
    ? `<p>You are unsubscribed from all email from ${name} since ${day(p.optedOutAt)}.</p>`
    : [
        '<h2>All email</h2>',
        `<form method="post" action="${escapeHtml(p.action)}">`,
        hiddenInput('List-Unsubscribe', 'One-Click'),
        `<button type="submit" class="secondary">Unsubscribe from all email from ${name}</button>`,
        '</form>',
      ].join('\n');
  const body = [`<h1>Email from ${name}</h1>`, ...lists, all].join('\n');
  return renderPage({ title: `Email from ${p.workspaceName}`, body, notice: p.notice, alert: p.alert });
}

/** A page with one line: done (a one-click POST), or refused (a link tampered with, or naming someone gone). */
export function renderPreferencesNote(p: { alert?: string; notice?: string }): string {
  return renderPage({ title: 'Email preferences', body: '<h1>Email preferences</h1>', ...p });
}
