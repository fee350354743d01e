// The page an email link opens: a button that signs in. The link is used by the button's post, not by
// opening it, so a mail scanner that fetches links does not spend it.
import { hiddenInput, renderPage } from './page';

export function renderLinkPage(p: { token: string; alert?: string | null }): string {
  const body = [
    '<h1>Sign in to Lifeline</h1>',
    '<p>This link signs you in once.</p>',
    '<form method="post" action="/sign-in/link">',
    hiddenInput('token', p.token),
    '<button type="submit">Sign in</button>',
    '</form>',
  ].join('\n');
  return renderPage({ title: 'Sign in', body, alert: p.alert });
}
