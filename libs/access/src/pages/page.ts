// The frame of the sign-in pages: one complete HTML document with its own small stylesheet and no script,
// and the escaping every interpolated value goes through.

import { escapeHtml } from '@app/platform/plain';

export { escapeHtml };

export interface PageInput {
  title: string;
  /** Already-built HTML: each value in it escaped by its page. */
  body: string;
  /** Error text, shown first, read out by screen readers at once. */
  alert?: string | null;
  /** Information text (a link was sent, you signed out, ...). */
  notice?: string | null;
}

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5260; --line: #c9ced6; --brand: #1d4ed8; --brand-dark: #1e3a8a; }
* { box-sizing: border-box; }
html { font-size: 100%; }
body {
  margin: 0; min-height: 100vh; display: flex; align-items: flex-start; justify-content: center;
  padding: 3rem 1rem; background: #f3f4f6; color: var(--ink); line-height: 1.5;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main { width: 100%; max-width: 28rem; background: #fff; border: 1px solid var(--line); border-radius: 0.5rem; padding: 1.75rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 0.5rem; padding-top: 1.25rem; border-top: 1px solid var(--line); }
p { margin: 0 0 1rem; }
form { margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
input[type="text"], input[type="email"], input[type="password"] {
  display: block; width: 100%; font: inherit; color: inherit; padding: 0.5rem 0.625rem;
  border: 1px solid #6b7280; border-radius: 0.375rem; background: #fff; margin-bottom: 0.75rem;
}
button {
  font: inherit; font-weight: 600; cursor: pointer; padding: 0.5rem 1rem; border-radius: 0.375rem;
  border: 1px solid var(--brand); background: var(--brand); color: #fff;
}
button:hover { background: var(--brand-dark); border-color: var(--brand-dark); }
button.secondary { background: #fff; color: var(--ink); border-color: #6b7280; }
button.secondary:hover { background: #e5e7eb; }
a { color: var(--brand); text-underline-offset: 0.15em; }
a:hover { color: var(--brand-dark); }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
input:focus-visible { outline-offset: 0; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
.alert, .notice { padding: 0.625rem 0.75rem; border-radius: 0.375rem; border: 1px solid; }
.alert { background: #fdecec; border-color: #b91c1c; color: #7f1d1d; }
.notice { background: #e8f5ec; border-color: #15803d; color: #14532d; }
.note { color: var(--muted); font-size: 0.9375rem; }
.actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
.choice { display: flex; align-items: center; gap: 0.75rem; flex-wrap: wrap; }
.meta { color: var(--muted); font-size: 0.9375rem; }
`;

/** The complete document: title, message lines, then the page's own body inside one centered card. */
export function renderPage(p: PageInput): string {
  const alert = p.alert ? `<p role="alert" class="alert">${escapeHtml(p.alert)}</p>\n` : '';
  const notice = p.notice ? `<p role="status" class="notice">${escapeHtml(p.notice)}</p>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)} · Lifeline</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${alert}${notice}${p.body}
</main>
</body>
</html>
`;
}

/** A hidden form value. */
export function hiddenInput(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

export interface FieldInput {
  id: string;
  label: string;
  name: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  /** The id of a note that describes the field. */
  describedBy?: string;
}

/** A visible label and its required input, tied by id. */
export function field(f: FieldInput): string {
  const described = f.describedBy ? ` aria-describedby="${escapeHtml(f.describedBy)}"` : '';
  return (
    `<label for="${escapeHtml(f.id)}">${escapeHtml(f.label)}</label>\n` +
    `<input id="${escapeHtml(f.id)}" name="${escapeHtml(f.name)}" type="${f.type}" autocomplete="${escapeHtml(f.autocomplete)}"` +
    ` required spellcheck="false" autocapitalize="off"${described}>`
  );
}

/** The sign-out form (POST, so a link or prefetch cannot sign anyone out). */
export function signOutForm(): string {
  return `<form method="post" action="/sign-out">\n<button type="submit" class="secondary">Sign out</button>\n</form>`;
}
