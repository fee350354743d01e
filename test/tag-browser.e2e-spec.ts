/// <reference lib="dom" />
// The website tag in a real browser: a page on localhost from an allowed origin loads
// track.js from the real api, navigates, clicks a download link and submits a subscribe form;
// the person, their timeline and their consent are then read back through GraphQL.
import type { Browser } from 'playwright-core';
import { eventually, useApp, useWorkspace } from './harness';
import { launchBrowser, startSite } from './support/browser';

const t = useApp();
const ws = useWorkspace(t, { origins: ['http://localhost:*'] }, 'all');
let site: Awaited<ReturnType<typeof startSite>>;
let siteUrl: string;
let browser: Browser;

const CONSENT = 'Yes, email me product news. I can leave any time.';

function page(scriptUrl: string): string {
  return `<!doctype html><html><head><title>Shop</title>
<script>window.lifeline = [["identify", {"fields": {"queued": "yes"}}]];</script>
<script async src="${scriptUrl}"></script></head>
<body>
  <a id="download" href="/files/app.dmg">Get the app</a>
  <button id="next" onclick="history.pushState({}, '', '/pricing')">Pricing</button>
  <div data-lifeline-cta="hero"><span id="hero">Try it</span></div>
  <form id="subscribe">
    <input name="email" type="email" value="ada@shop.test"><button id="join" type="submit">Join</button>
  </form>
  <script>
    document.getElementById('subscribe').addEventListener('submit', function (e) {
      e.preventDefault();
      window.lifeline.subscribe({ email: this.email.value, list: 'news', consent: { text: ${JSON.stringify(CONSENT)} } })
        .then(function (answer) { document.body.dataset.answer = JSON.stringify(answer); });
    });
  </script>
</body></html>`;
}

beforeAll(async () => {
  await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
  const html = page(`${t.url}/api/in/${ws.publicKey}/track.js`);
  site = await startSite((req, res) => {
    if (req.url?.startsWith('/files/'))
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('binary');
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  siteUrl = site.url;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
});

it('a visitor is tracked from first pageview to subscription, with consent kept as proof', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${siteUrl}/?utm_source=newsletter&utm_medium=email`);
  await tab.waitForFunction(() => typeof (window as any).lifeline?.anonId === 'function');
  const anonId = await tab.evaluate(() => (window as any).lifeline.anonId());
  expect(anonId).toMatch(/^[0-9a-f]{32}$/);

  await tab.click('#next');
  await tab.click('#hero');
  await tab.click('#download');
  await tab.goto(siteUrl);
  expect(await tab.evaluate(() => (window as any).lifeline.anonId())).toBe(anonId);
  await tab.click('#join');
  await tab.waitForFunction(() => document.body.dataset.answer);
  expect(JSON.parse((await tab.evaluate(() => document.body.dataset.answer))!)).toEqual({
    ok: true,
    status: 'subscribed',
  });

  const query = `query($email: String) { person(email: $email) { id stage engaged fields firstTouch identities { kind value }
    subscriptions { list { address } consentText }
    timeline(first: 50) { edges { node { type properties source } } } } }`;
  const person = await eventually(async () => {
    const found = (await t.gql(query, { email: 'ada@shop.test' }, ws.secretKey)).data.person;
    const p = found && { ...found, timeline: found.timeline.edges.map((e: { node: unknown }) => e.node) };
    return p &&
      p.timeline.filter((e: { type: string }) => e.type === 'pageview').length >= 3 &&
      p.timeline.some((e: { properties: any }) => e.properties?.href)
      ? p
      : null;
  });
  expect(person.identities).toEqual(
    expect.arrayContaining([
      { kind: 'anon_id', value: anonId },
      { kind: 'email', value: 'ada@shop.test' },
    ]),
  );
  expect(person.engaged).toBe(true);
  expect(person.fields).toEqual({ queued: 'yes' });
  expect(person.firstTouch).toMatchObject({ source: 'newsletter', medium: 'email', path: '/' });
  expect(person.subscriptions).toEqual([{ list: { address: 'news' }, consentText: CONSENT }]);
  const types = person.timeline.map((e: { type: string }) => e.type);
  expect(types).toEqual(expect.arrayContaining(['pageview', 'cta_click', 'subscribed']));
  const paths = person.timeline
    .filter((e: { type: string }) => e.type === 'pageview')
    .map((e: { source: { path: string } }) => e.source.path);
  expect(paths).toEqual(expect.arrayContaining(['/', '/pricing']));
  const clicks = person.timeline
    .filter((e: { type: string }) => e.type === 'cta_click')
    .map((e: { properties: unknown }) => e.properties);
  expect(clicks).toEqual(expect.arrayContaining([{ cta: 'hero' }, { href: '/files/app.dmg', text: 'Get the app' }]));
  const sources = person.timeline
    .filter((e: { source: unknown }) => e.source)
    .map((e: { source: { os: string; anon_id: string } }) => e.source);
  expect(sources.every((s: { anon_id: string }) => s.anon_id === anonId)).toBe(true);
  await context.close();
}, 60_000);
