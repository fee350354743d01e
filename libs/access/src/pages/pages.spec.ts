// The sign-in pages as strings: no script, every field labelled, the exact texts people and browser
// tests rely on, and every value escaped.
import {
  escapeHtml,
  renderConsentPage,
  renderPage,
  renderSignInPage,
  renderWorkspacePicker,
  SignInPageInput,
} from './index';

const hostile = '<img src=x onerror=alert(1)>"';

const signIn = (over: Partial<SignInPageInput> = {}): string =>
  renderSignInPage({ next: '/graphql', emailLinksLogged: false, emailLinksOff: false, operator: false, ...over });

const consent = (v = 'x'): string =>
  renderConsentPage({
    clientName: `Claude ${v}`,
    clientUri: `https://claude.test/${v}`,
    redirectHost: `claude.test${v}`,
    memberEmail: `ada${v}@example.com`,
    workspaceName: `Acme ${v}`,
    workspaceSlug: `acme${v}`,
    role: `admin${v}`,
    request: `signed.${v}`,
    alert: `Try again ${v}`,
  });

const picker = (v = 'x'): string =>
  renderWorkspacePicker({
    email: `ada${v}@example.com`,
    next: `/graphql${v}`,
    alert: `Pick one ${v}`,
    workspaces: [
      { id: `ws_1${v}`, name: `Acme ${v}`, slug: `acme${v}`, role: `admin${v}`, current: true },
      { id: `ws_2${v}`, name: `Globex ${v}`, slug: `globex${v}`, role: `member${v}`, current: false },
    ],
  });

const pages: Array<[string, string]> = [
  [
    'sign-in, every way on',
    signIn({ operator: true, emailLinksLogged: true, alert: 'Wrong key', notice: 'Signed out' }),
  ],
  ['sign-in, email links off', signIn({ emailLinksOff: true })],
  ['consent', consent()],
  ['workspace picker', picker()],
  ['workspace picker, no workspaces', renderWorkspacePicker({ email: 'ada@example.com', next: '/', workspaces: [] })],
];

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const tags = (html: string, name: string): string[] => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
const buttonTexts = (html: string): string[] =>
  [...html.matchAll(/<button\b[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
const labelTexts = (html: string): string[] => [...html.matchAll(/<label\b[^>]*>([^<]*)<\/label>/g)].map((m) => m[1]);
const forms = (html: string): string[] => html.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
const formAt = (html: string, action: string): string | undefined =>
  forms(html).find((f) => f.includes(`action="${action}"`));

describe('every page', () => {
  it.each(pages)('%s: is a whole HTML5 document with no script', (_name, html) => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<title>[^<]+ · Lifeline<\/title>/);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html.toLowerCase()).not.toContain('<script');
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html.match(/<h1>/g)).toHaveLength(1);
  });

  it.each(pages)('%s: labels every visible input, by a unique id', (_name, html) => {
    const visible = tags(html, 'input').filter((t) => attr(t, 'type') !== 'hidden');
    const ids = visible.map((t) => attr(t, 'id'));
    expect(ids.every((id) => id !== undefined && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const fors = tags(html, 'label').map((t) => attr(t, 'for'));
    expect([...fors].sort()).toEqual([...ids].sort());
    const allIds = [...html.matchAll(/\bid="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(allIds).size).toBe(allIds.length);
  });

  it.each(pages)('%s: posts every form', (_name, html) => {
    for (const form of forms(html)) expect(form).toMatch(/^<form method="post" action="\/[a-z/-]+"/);
    expect(forms(html).length).toBe(tags(html, 'form').length);
  });
});

describe('renderPage', () => {
  it('shows an alert with role="alert" and a notice with role="status"', () => {
    const html = renderPage({
      title: 'T',
      body: '<h1>T</h1>',
      alert: 'That key is not valid.',
      notice: 'Check your email.',
    });
    expect(html).toContain('<p role="alert" class="alert">That key is not valid.</p>');
    expect(html).toContain('<p role="status" class="notice">Check your email.</p>');
    expect(html).toContain('<title>T · Lifeline</title>');
  });

  it('shows neither when there is none', () => {
    const html = renderPage({ title: 'T', body: '<h1>T</h1>', alert: null });
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('role="status"');
  });

  it('escapes the title', () => {
    expect(renderPage({ title: hostile, body: '' })).toContain(`<title>${escapeHtml(hostile)} · Lifeline</title>`);
  });
});

describe('escapeHtml', () => {
  it('escapes & < > " and \'', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
    expect(escapeHtml(hostile)).toBe('&lt;img src=x onerror=alert(1)&gt;&quot;');
  });
});

describe('renderSignInPage', () => {
  it('has the heading, the key form and the email form, in that order', () => {
    const html = signIn();
    expect(html).toContain('<h1>Sign in to Lifeline</h1>');
    expect(html.indexOf('<h1>')).toBeLessThan(html.indexOf('action="/sign-in/key"'));
    expect(html.indexOf('action="/sign-in/key"')).toBeLessThan(html.indexOf('action="/sign-in/email"'));
    expect(buttonTexts(html)).toEqual(['Sign in', 'Email me a sign-in link']);
    expect(labelTexts(html)).toEqual(['Secret key', 'Email']);
  });

  it('asks for the secret key in a password field that is not remembered', () => {
    const form = formAt(signIn(), '/sign-in/key')!;
    const key = tags(form, 'input').find((t) => attr(t, 'name') === 'key')!;
    expect(attr(key, 'type')).toBe('password');
    expect(attr(key, 'autocomplete')).toBe('off');
    expect(form).toContain('<input type="hidden" name="next" value="/graphql">');
  });

  it('asks for the email in an email field', () => {
    const form = formAt(signIn(), '/sign-in/email')!;
    const email = tags(form, 'input').find((t) => attr(t, 'name') === 'email')!;
    expect(attr(email, 'type')).toBe('email');
    expect(attr(email, 'autocomplete')).toBe('email');
    expect(form).toContain('<input type="hidden" name="next" value="/graphql">');
  });

  it('says where the link goes when email links are only logged', () => {
    const note =
      'No email provider is set up: in development the link is written to the api&#39;s log instead of being sent.';
    expect(signIn({ emailLinksLogged: true })).toContain(note);
    expect(signIn({ emailLinksLogged: true })).toContain('action="/sign-in/email"');
    expect(signIn()).not.toContain('No email provider is set up');
  });

  it('replaces the email form with a note when email links are off', () => {
    const html = signIn({ emailLinksOff: true });
    expect(html).toContain(
      'Email links need an email provider (SMTP_URL or RESEND_API_KEY); sign in with a secret key.',
    );
    expect(html).not.toContain('action="/sign-in/email"');
    expect(html).not.toContain('Email me a sign-in link');
    expect(labelTexts(html)).toEqual(['Secret key']);
    expect(signIn()).not.toContain('Email links need an email provider');
  });
});

describe('renderSignInPage: the operator door, the alert and escaping', () => {
  it('offers the operator token only when the operator door is open', () => {
    expect(signIn()).not.toContain('/sign-in/operator');
    expect(signIn()).not.toContain('Operator token');
    const html = signIn({ operator: true });
    const form = formAt(html, '/sign-in/operator')!;
    expect(buttonTexts(form)).toEqual(['Sign in as operator']);
    expect(labelTexts(form)).toEqual(['Operator token']);
    const token = tags(form, 'input').find((t) => attr(t, 'name') === 'token')!;
    expect(attr(token, 'type')).toBe('password');
    expect(form).toContain('<input type="hidden" name="next" value="/graphql">');
    expect(html.indexOf('/sign-in/email')).toBeLessThan(html.indexOf('/sign-in/operator'));
  });

  it('shows the alert with role="alert"', () => {
    expect(signIn({ alert: 'That key is not valid.' })).toContain(
      '<p role="alert" class="alert">That key is not valid.</p>',
    );
  });

  it('escapes next and the messages', () => {
    const html = signIn({ next: hostile, alert: hostile, notice: hostile, operator: true });
    expect(html).not.toContain(hostile);
    expect(html).not.toContain('<img');
    expect(html.split(`value="${escapeHtml(hostile)}"`)).toHaveLength(4);
  });
});

describe('renderConsentPage', () => {
  it('names the app, the member, the workspace and where the sign-in goes back', () => {
    const html = consent();
    expect(html).toContain('<h1>Allow Claude x?</h1>');
    for (const text of [
      'adax@example.com',
      '(adminx)',
      'Acme x',
      'acmex',
      'claude.testx',
      'https://claude.test/x',
      'tool door',
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain('revokeConnectedApp');
    expect(html).toContain('signing out does not disconnect it');
  });

  it('posts the signed request with one of two buttons of the same form', () => {
    const html = consent();
    const all = forms(html);
    expect(all).toHaveLength(1);
    const form = formAt(html, '/consent')!;
    expect(form).toContain('<input type="hidden" name="request" value="signed.x">');
    expect(form).toContain('<button type="submit" name="decision" value="allow">Allow</button>');
    expect(form).toMatch(/<button type="submit" name="decision" value="deny"[^>]*>Deny<\/button>/);
    expect(buttonTexts(html)).toEqual(['Allow', 'Deny']);
  });

  it('leaves out the site when the app gives none', () => {
    const html = renderConsentPage({ ...baseConsent(), clientUri: null });
    expect(html).not.toContain('gives its site');
  });

  it('shows the alert with role="alert"', () => {
    expect(consent()).toContain('<p role="alert" class="alert">Try again x</p>');
  });

  it('escapes every value', () => {
    const html = consent(hostile);
    expect(html).not.toContain(hostile);
    expect(html).not.toContain('<img');
    expect(html).toContain(`<h1>Allow Claude ${escapeHtml(hostile)}?</h1>`);
  });
});

function baseConsent(): Parameters<typeof renderConsentPage>[0] {
  return {
    clientName: 'Claude',
    redirectHost: 'claude.ai',
    memberEmail: 'ada@example.com',
    workspaceName: 'Acme',
    workspaceSlug: 'acme',
    role: 'admin',
    request: 'r',
  };
}

describe('renderWorkspacePicker', () => {
  it('offers one form per workspace, named by the workspace, then sign out', () => {
    const html = picker();
    expect(html).toContain('<h1>Choose a workspace</h1>');
    expect(html).toContain('Signed in as <strong>adax@example.com</strong>.');
    expect(buttonTexts(html)).toEqual(['Acme x (current)', 'Globex x', 'Sign out']);
    const choices = forms(html).filter((f) => f.includes('action="/sign-in/workspace"'));
    expect(choices).toHaveLength(2);
    expect(choices[0]).toContain('<input type="hidden" name="workspace" value="ws_1x">');
    expect(choices[1]).toContain('<input type="hidden" name="workspace" value="ws_2x">');
    for (const f of choices) expect(f).toContain('<input type="hidden" name="next" value="/graphqlx">');
    expect(choices[1]).toContain('globexx');
    expect(choices[1]).toContain('memberx');
    expect(formAt(html, '/sign-out')).toBeDefined();
  });

  it('shows the alert with role="alert"', () => {
    expect(picker()).toContain('<p role="alert" class="alert">Pick one x</p>');
  });

  it('escapes every value', () => {
    const html = picker(hostile);
    expect(html).not.toContain(hostile);
    expect(html).not.toContain('<img');
  });
});
