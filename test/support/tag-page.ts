// A small shop page that loads the tag (docs/website-tag.md#the-website-tag), for browser tests against a
// stand-in or the real app.
// Elements: #next (client-side navigation to /pricing), #download (/files/app.dmg), #install (a page
// whose link text says install), #about (a plain link, no cta), #hero inside data-lifeline-cta="hero",
// and form #subscribe (#email, #join) whose answer lands in document.body.dataset.answer as JSON.

export const TAG_PAGE_CONSENT = 'Yes, email me product news. I can leave any time.';

export interface TagPageOptions {
  /** Absolute address of track.js, e.g. `${baseUrl}/api/in/${publicKey}/track.js`. */
  scriptUrl: string;
  /** The list the form subscribes to; default newsletter. */
  list?: string;
  /** The words next to the form, sent as consent.text; default TAG_PAGE_CONSENT. */
  consentText?: string;
  /** Calls queued in a `window.lifeline` array stub before the tag loads, e.g. [['identify', {fields: {plan: 'pro'}}]]. */
  queued?: unknown[][];
  /** The email the form starts with; default ada@shop.test. */
  email?: string;
}

/** Data inside an inline script: JSON with < escaped so no value can close the script element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function tagPageHtml(options: TagPageOptions): string {
  const list = options.list ?? 'newsletter';
  const consent = options.consentText ?? TAG_PAGE_CONSENT;
  const stub = options.queued
    ? `<script>window.lifeline = window.lifeline || []; ${inlineJson(options.queued)}.forEach(function (c) { window.lifeline.push(c); });</script>`
    : '';
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Shop</title>
${stub}
<script async src="${attribute(options.scriptUrl)}"></script></head>
<body>
  <nav>
    <button id="next" type="button" onclick="history.pushState({}, '', '/pricing')">Pricing</button>
    <a id="about" href="#about">About us</a>
  </nav>
  <a id="download" href="/files/app.dmg">Get the app</a>
  <a id="install" href="/docs/install">Install guide</a>
  <div data-lifeline-cta="hero"><span id="hero">Try it</span></div>
  <form id="subscribe">
    <label><input id="email" name="email" type="email" value="${attribute(options.email ?? 'ada@shop.test')}">
      ${consent.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</label>
    <button id="join" type="submit">Join</button>
  </form>
  <script>
    document.getElementById('subscribe').addEventListener('submit', function (e) {
      e.preventDefault();
      window.lifeline.subscribe({ email: this.email.value, list: ${inlineJson(list)}, consent: { text: ${inlineJson(consent)} } })
        .then(function (answer) { document.body.dataset.answer = JSON.stringify(answer); });
    });
  </script>
</body></html>`;
}
