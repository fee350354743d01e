import { renderPreferencesPage } from './preferences.page';

const list = (over: Partial<Parameters<typeof renderPreferencesPage>[0]['lists'][number]>) => ({
  id: 'list_1',
  name: 'News',
  subscribed: true,
  pending: false,
  consentText: 'Send me the news.',
  grantedAt: new Date('2026-11-01T10:00:00Z'),
  withdrawnAt: null,
  ...over,
});

describe('the preference page', () => {
  const html = renderPreferencesPage({
    action: '/preferences/abc.def',
    workspaceName: 'Acme <b>&</b>',
    lists: [
      list({}),
      list({ id: 'list_2', name: 'Tips', subscribed: false, withdrawnAt: new Date('2026-11-20T10:00:00Z') }),
      list({ id: 'list_3', name: 'Events', pending: true }),
    ],
    optedOutAt: null,
  });

  it('names the workspace, escaped, and carries no script', () => {
    expect(html).toContain('<h1>Email from Acme &lt;b&gt;&amp;&lt;/b&gt;</h1>');
    expect(html).not.toMatch(/<script/i);
  });

  it('has a checkbox per list labelled with its name: ticked while on it, disabled once left', () => {
    expect(html).toMatch(/<input type="checkbox" id="list-0" name="list" value="list_1" checked aria-describedby/);
    expect(html).toMatch(/<input type="checkbox" id="list-1" name="list" value="list_2" disabled/);
    expect(html).toContain('<label for="list-1">Tips</label>');
    expect(html).toContain('On 2026-11-01 you agreed to: “Send me the news.”.');
    expect(html).toContain('You left on 2026-11-20.');
    expect(html).toContain('It waits for you to confirm');
    expect(html).toContain('<button type="submit">Save</button>');
  });

  it('offers the one-click as a button until the person opted out, then says since when', () => {
    expect(html).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    const out = renderPreferencesPage({
      action: '/preferences/abc.def',
      workspaceName: 'Acme',
      lists: [],
      optedOutAt: new Date('2026-12-01T00:00:00Z'),
    });
    expect(out).toContain('You are unsubscribed from all email from Acme since 2026-12-01.');
    expect(out).not.toContain('List-Unsubscribe');
  });
});
