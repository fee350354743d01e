// The sign-in page: a secret key, an email link (when email can be sent or logged), and the operator
// token when the operator door is open. Pure: the caller says which ways are on.
import { escapeHtml, field, hiddenInput, renderPage } from './page';

export interface SignInPageInput {
  /** Where to go once signed in (a path on this service); carried through every form. */
  next: string;
  alert?: string | null;
  notice?: string | null;
  /** No email provider: in development the link goes to the api's log. */
  emailLinksLogged: boolean;
  /** No email provider and links are not logged: no email form at all. */
  emailLinksOff: boolean;
  /** The operator door is open (ADMIN_TOKEN set). */
  operator: boolean;
}

export function renderSignInPage(p: SignInPageInput): string {
  const body = [
    '<h1>Sign in to Lifeline</h1>',
    keyForm(p.next),
    '<h2>With an email link</h2>',
    p.emailLinksOff ? emailOffNote() : emailForm(p.next, p.emailLinksLogged),
    p.operator ? operatorForm(p.next) : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
  return renderPage({ title: 'Sign in', body, alert: p.alert, notice: p.notice });
}

function keyForm(next: string): string {
  return [
    '<form method="post" action="/sign-in/key">',
    hiddenInput('next', next),
    field({ id: 'sign-in-key', label: 'Secret key', name: 'key', type: 'password', autocomplete: 'off' }),
    '<button type="submit">Sign in</button>',
    '</form>',
  ].join('\n');
}

function emailForm(next: string, logged: boolean): string {
  const noteId = 'sign-in-email-note';
  const note = logged
    ? `<p class="note" id="${noteId}">${escapeHtml(
        "No email provider is set up: in development the link is written to the api's log instead of being sent.",
      )}</p>`
    : '';
  return [
    '<form method="post" action="/sign-in/email">',
    hiddenInput('next', next),
    field({
      id: 'sign-in-email',
      label: 'Email',
      name: 'email',
      type: 'email',
      autocomplete: 'email',
      describedBy: logged ? noteId : undefined,
    }),
    '<button type="submit">Email me a sign-in link</button>',
    '</form>',
    note,
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function emailOffNote(): string {
  return `<p class="note">${escapeHtml(
    'Email links need an email provider (SMTP_URL or RESEND_API_KEY); sign in with a secret key.',
  )}</p>`;
}

function operatorForm(next: string): string {
  return [
    '<h2>As the operator</h2>',
    '<form method="post" action="/sign-in/operator">',
    hiddenInput('next', next),
    field({
      id: 'sign-in-operator-token',
      label: 'Operator token',
      name: 'token',
      type: 'password',
      autocomplete: 'off',
    }),
    '<button type="submit">Sign in as operator</button>',
    '</form>',
  ].join('\n');
}
