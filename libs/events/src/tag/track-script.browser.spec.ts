/// <reference lib="dom" />
// docs/website-tag.md, the source field of docs/rest.md#events, docs/rest.md#website-endpoints: the tag in
// real Chromium.
// The page is served from http://localhost:P1 and the stand-in doors from http://127.0.0.1:P2, so every
// post crosses origins and needs the CORS preflight the doors answer for the page's origin only.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../../../test/support/browser';
import { TAG_PAGE_CONSENT, tagPageHtml } from '../../../../test/support/tag-page';
import { loadTrackScript, TRACK_SCRIPT_HEADERS } from './track-script';

interface Post {
  action: string;
  origin: string | undefined;
  body: Record<string, any>;
}

const PUBLIC_KEY = 'wk_standin0000000000000000';
const SECRET_KEY = 'sk_live_standin000000000000000000000';
const TAG_EVENTS = new Set(['pageview', 'configure', 'cta_click', 'waitlist_cta', 'measure_cta', 'download']);
const USUAL_STATUS: Record<string, string> = {
  subscribe: 'subscribed',
  identify: 'linked',
  event: 'recorded',
  support: 'recorded',
};
const OS = ({ linux: 'linux', darwin: 'mac', win32: 'win' } as Record<string, string>)[process.platform] ?? 'other';

let browser: Browser;
let site: Server;
let doors: Server;
let siteUrl = '';
let doorsUrl = '';
let posts: Post[] = [];
let preflights: Array<string | undefined> = [];
const contexts: BrowserContext[] = [];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      .on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown, origin?: string): void {
  const cors: Record<string, string> = origin ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : {};
  res.writeHead(status, { 'Content-Type': 'application/json', ...cors }).end(JSON.stringify(body));
}

/** The stand-in public doors: track.js, CORS for the page's origin only, and a record of every JSON body. */
async function door(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [, key, action] = /^\/api\/in\/([^/]+)\/([^/?]+)/.exec(req.url ?? '') ?? [];
  const origin = req.headers.origin;
  if (req.method === 'GET' && action === 'track.js') {
    const render = await loadTrackScript();
    res.writeHead(200, TRACK_SCRIPT_HEADERS).end(render(`${doorsUrl}/api/in/${key}`));
    return;
  }
  if (!USUAL_STATUS[action])
    return answer(res, 404, {
      ok: false,
      error: 'unknown_action',
      message: 'Post to subscribe, identify, event or support.',
    });
  if (origin !== siteUrl)
    return answer(res, 403, { ok: false, error: 'origin_not_allowed', message: 'Add this site to the workspace.' });
  if (req.method === 'OPTIONS') {
    preflights.push(origin);
    res
      .writeHead(204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Content-Type',
        Vary: 'Origin',
      })
      .end();
    return;
  }
  const body = JSON.parse(await readBody(req));
  posts.push({ action, origin, body });
  if (action === 'event' && !TAG_EVENTS.has(body.type)) {
    return answer(
      res,
      400,
      { ok: false, error: 'unknown_event', message: 'Custom event names need a secret key.' },
      origin,
    );
  }
  answer(res, 200, { ok: true, status: USUAL_STATUS[action] }, origin);
}

function page(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', siteUrl).pathname;
  if (path.startsWith('/files/')) {
    res
      .writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': 'attachment; filename="app.dmg"',
      })
      .end('binary');
    return;
  }
  const key = path === '/secret' ? SECRET_KEY : PUBLIC_KEY;
  const queued =
    path === '/queued'
      ? [
          ['identify', { fields: { plan: 'pro' } }],
          ['event', 'download', { properties: { file: 'app.dmg' } }],
        ]
      : undefined;
  res
    .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    .end(tagPageHtml({ scriptUrl: `${doorsUrl}/api/in/${key}/track.js`, queued }));
}

async function waitFor<T>(find: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}; posts: ${JSON.stringify(posts)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 300));
const pageviews = () => posts.filter((p) => p.action === 'event' && p.body.type === 'pageview');
const pageviewAt = (path: string, times = 1) =>
  waitFor(() => pageviews().filter((p) => p.body.source?.path === path).length >= times, `pageview ${path} x${times}`);
const clicks = () => posts.filter((p) => p.body.type === 'cta_click').map((p) => p.body.properties);

async function openTab(init?: (tab: Page) => Promise<unknown>): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  const tab = await context.newPage();
  await init?.(tab);
  return tab;
}

async function anonIdOf(tab: Page): Promise<string> {
  await tab.waitForFunction(() => typeof (window as any).lifeline?.anonId === 'function');
  return tab.evaluate(() => (window as any).lifeline.anonId() as string);
}

beforeAll(async () => {
  site = createServer(page);
  doors = createServer(
    (req, res) =>
      void door(req, res).catch((e) => answer(res, 500, { ok: false, error: 'server_error', message: String(e) })),
  );
  siteUrl = `http://localhost:${await listen(site)}`;
  doorsUrl = `http://127.0.0.1:${await listen(doors)}`;
  browser = await launchBrowser();
}, 60_000);

beforeEach(() => {
  posts = [];
  preflights = [];
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await browser?.close();
  site?.close();
  doors?.close();
});

it('posts pageview on load with anon_id at the top level and source path, referrer host, os, utm, click_id and anon_id', async () => {
  const tab = await openTab();
  await tab.goto(`${siteUrl}/?utm_source=newsletter&utm_medium=email&utm_campaign=launch&gclid=g1&fbclid=f1`, {
    referer: 'http://news.example/item?id=7',
  });
  const anonId = await anonIdOf(tab);
  expect(anonId).toMatch(/^[0-9a-f]{32}$/);
  await pageviewAt('/');
  expect(pageviews()).toHaveLength(1);
  expect(pageviews()[0]).toEqual({
    action: 'event',
    origin: siteUrl,
    body: {
      type: 'pageview',
      anon_id: anonId,
      source: {
        path: '/',
        referrer: 'news.example',
        os: OS,
        anon_id: anonId,
        utm: { source: 'newsletter', medium: 'email', campaign: 'launch' },
        click_id: 'g1',
      },
    },
  });
  expect(preflights).toContain(siteUrl); // JSON from another origin went through a real CORS preflight
});

it('posts another pageview on client-side navigation and on popstate, and none for a replaceState to the same path', async () => {
  const tab = await openTab();
  await tab.goto(siteUrl);
  await pageviewAt('/');
  await tab.click('#next');
  await pageviewAt('/pricing');
  await tab.evaluate(() => history.replaceState({}, '', '/pricing?tab=2#plans'));
  await tab.evaluate(() => history.replaceState({}, '', '/plans'));
  await pageviewAt('/plans');
  await tab.goBack();
  await pageviewAt('/', 2);
  await settle();
  expect(pageviews().map((p) => p.body.source.path)).toEqual(['/', '/pricing', '/plans', '/']);
});

it('posts cta_click for a download link and for a data-lifeline-cta element, whose value becomes properties.cta; a plain link posts none', async () => {
  const tab = await openTab();
  await tab.goto(siteUrl);
  await pageviewAt('/');
  await tab.click('#about');
  await tab.click('#hero');
  await waitFor(() => clicks().length >= 1, 'the hero cta_click');
  await Promise.all([tab.waitForEvent('download'), tab.click('#download')]);
  await waitFor(() => clicks().length >= 2, 'the download cta_click');
  await settle();
  expect(clicks()).toEqual([{ cta: 'hero' }, { href: '/files/app.dmg', text: 'Get the app' }]);
});

it('a cta_click on an install link that leaves the page still arrives, posted by fetch with keepalive, cors and no credentials', async () => {
  const tab = await openTab((t) =>
    t.addInitScript(() => {
      const original = window.fetch;
      const seen: unknown[] = ((window as any).fetchOptions = []);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => (
        seen.push({ ...init, body: undefined }),
        original(input, init)
      );
    }),
  );
  await tab.goto(siteUrl);
  await pageviewAt('/');
  expect(await tab.evaluate(() => (window as any).fetchOptions[0])).toEqual({
    method: 'POST',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    mode: 'cors',
    credentials: 'omit',
  });
  await Promise.all([tab.waitForURL(`${siteUrl}/docs/install`), tab.click('#install')]);
  await waitFor(() => clicks().length >= 1, 'the install cta_click');
  expect(clicks()).toEqual([{ href: '/docs/install', text: 'Install guide' }]);
  const next = await pageviewAt('/docs/install').then(() =>
    pageviews().find((p) => p.body.source.path === '/docs/install')!,
  );
  expect(next.body.source.referrer).toBeUndefined(); // the page's own site is not a referrer
});

it('the subscribe form posts email, list and consent.text, and its promise resolves to the parsed answer', async () => {
  const tab = await openTab();
  await tab.goto(siteUrl);
  const anonId = await anonIdOf(tab);
  await tab.fill('#email', 'grace@shop.test');
  await tab.click('#join');
  await tab.waitForFunction(() => document.body.dataset.answer);
  expect(JSON.parse((await tab.evaluate(() => document.body.dataset.answer))!)).toEqual({
    ok: true,
    status: 'subscribed',
  });
  const subscribe = posts.find((p) => p.action === 'subscribe')!;
  expect(subscribe.body).toEqual({
    email: 'grace@shop.test',
    list: 'newsletter',
    consent: { text: TAG_PAGE_CONSENT },
    anon_id: anonId,
    source: { path: '/', os: OS, anon_id: anonId },
  });
});

it("a refusal resolves to the door's parsed answer, and a post that cannot reach the door resolves to ok:false", async () => {
  const tab = await openTab();
  await tab.goto(siteUrl);
  await anonIdOf(tab);
  const refused = await tab.evaluate(() =>
    (window as any).lifeline.event('bought_socks', { properties: { pairs: 2 } }),
  );
  expect(refused).toEqual({ ok: false, error: 'unknown_event', message: 'Custom event names need a secret key.' });
  expect(posts.find((p) => p.body.type === 'bought_socks')?.body.properties).toEqual({ pairs: 2 });
  await tab.route(`${doorsUrl}/**`, (route) => route.abort());
  const unreachable = await tab.evaluate(() => (window as any).lifeline.support({ message: 'Hello?' }));
  expect(unreachable).toMatchObject({ ok: false, error: 'network_error' });
});

it('calls queued in a window.lifeline array stub are replayed when the tag loads, and push keeps working after', async () => {
  const tab = await openTab();
  await tab.goto(`${siteUrl}/queued`);
  const anonId = await anonIdOf(tab);
  const identify = await waitFor(() => posts.find((p) => p.action === 'identify'), 'the queued identify');
  expect(identify.body).toEqual({
    fields: { plan: 'pro' },
    anon_id: anonId,
    source: { path: '/queued', os: OS, anon_id: anonId },
  });
  const download = await waitFor(() => posts.find((p) => p.body.type === 'download'), 'the queued download event');
  expect(download.body.properties).toEqual({ file: 'app.dmg' });
  await tab.evaluate(() => (window as any).lifeline.push(['identify', { fields: { later: 'yes' } }]));
  await waitFor(() => posts.find((p) => p.body.fields?.later === 'yes'), 'the identify pushed after load');
});

it('keeps one anon_id in localStorage for every post and after a reload; another browser gets another id', async () => {
  const tab = await openTab();
  await tab.goto(siteUrl);
  const anonId = await anonIdOf(tab);
  await tab.click('#next');
  await tab.click('#hero');
  await tab.reload();
  expect(await anonIdOf(tab)).toBe(anonId);
  await pageviewAt('/pricing', 2);
  expect(await tab.evaluate(() => localStorage.getItem('lifeline_anon_id'))).toBe(anonId);
  expect(posts.length).toBeGreaterThanOrEqual(4);
  expect(posts.every((p) => p.body.anon_id === anonId && p.body.source.anon_id === anonId)).toBe(true);
  const other = await openTab();
  await other.goto(siteUrl);
  const otherId = await anonIdOf(other);
  expect(otherId).toMatch(/^[0-9a-f]{32}$/);
  expect(otherId).not.toBe(anonId);
});

it('falls back to a first-party cookie lifeline_anon_id when localStorage throws', async () => {
  const tab = await openTab((t) =>
    t.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get: () => {
          throw new DOMException('Storage is blocked', 'SecurityError');
        },
      });
    }),
  );
  await tab.goto(siteUrl);
  const anonId = await anonIdOf(tab);
  expect(await tab.evaluate(() => document.cookie)).toContain(`lifeline_anon_id=${anonId}`);
  await tab.reload();
  expect(await anonIdOf(tab)).toBe(anonId);
  await pageviewAt('/', 2);
  expect(pageviews().map((p) => p.body.anon_id)).toEqual([anonId, anonId]);
});

it('refuses to run, with a console warning and no posts, when its address holds a secret key', async () => {
  const warnings: string[] = [];
  const tab = await openTab(
    async (t) => void t.on('console', (m) => m.type() === 'warning' && warnings.push(m.text())),
  );
  await tab.goto(`${siteUrl}/secret`);
  await waitFor(() => warnings.find((w) => w.includes('secret key')), 'the secret key warning');
  await settle();
  expect(await tab.evaluate(() => typeof (window as any).lifeline)).toBe('undefined');
  expect(posts).toEqual([]);
});
