/// <reference lib="dom" />
// Segment's browser library (@segment/analytics-next, its own UMD build from node_modules) in
// Chromium, on a site the workspace names, pointed at the api with its settings given inline: with the
// public key, identify, a track of a name the tag posts and a page land on the visitor's person; a custom
// name is refused, answered 200 (so the library neither retries nor drops anything else) and counted.
// No request leaves for Segment's servers: every request the page makes is listed and checked.
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { HeartbeatService } from '@app/events';
import { ADMIN_TOKEN, useApp, useWorkspace } from './harness';
import { launchBrowser, startSite } from './support/browser';

const t = useApp();
const ws = useWorkspace(t, { origins: ['http://localhost:*'] }, 'all');
const BUILD = join(dirname(require.resolve('@segment/analytics-next/package.json')), 'dist', 'umd');
let site: Awaited<ReturnType<typeof startSite>>;
let siteUrl: string;
let browser: Browser;

/** The page: the library loaded from this site, settings inline (so no settings are fetched), then four calls. */
function shopPage(apiHost: string, publicKey: string): string {
  const settings = {
    writeKey: publicKey,
    cdnURL: siteUrl,
    cdnSettings: { integrations: { 'Segment.io': { apiKey: publicKey, apiHost, protocol: 'http' } } },
  };
  return `<!doctype html><html><head><title>Shop</title><script src="/ajs/index.js"></script></head><body>
<script>
  (async function () {
    const [analytics] = await AnalyticsNext.AnalyticsBrowser.load(${JSON.stringify(settings)});
    const sent = [];
    sent.push(await analytics.identify('u-browser', { email: 'vera@example.com', name: 'Vera Rubin', plan: 'pro' }));
    sent.push(await analytics.track('Download', { file: 'app.dmg' }));
    sent.push(await analytics.page('Pricing'));
    sent.push(await analytics.track('Report Built', { pages: 3 }));
    document.body.dataset.done = JSON.stringify({ anonymousId: analytics.user().anonymousId(), failed: sent.filter((ctx) => ctx.failedDelivery()).length });
  })().catch((error) => (document.body.dataset.done = JSON.stringify({ error: String(error) })));
</script></body></html>`;
}

beforeAll(async () => {
  const apiHost = `${new URL(t.url).host}/v1`;
  site = await startSite((req, res) => {
    const path = req.url ?? '/';
    // The library's own files, as a site serving it would: the build and any chunk it loads from its cdnURL.
    const file = path.startsWith('/ajs/')
      ? path.slice(5)
      : path.startsWith('/analytics-next/bundles/')
        ? path.slice(24)
        : null;
    if (file !== null) {
      const local = normalize(join(BUILD, file.split('?')[0]));
      if (!local.startsWith(BUILD)) return res.writeHead(404).end();
      void readFile(local).then(
        (body) => res.writeHead(200, { 'content-type': 'application/javascript' }).end(body),
        () => res.writeHead(404).end(),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(shopPage(apiHost, ws.publicKey));
  });
  siteUrl = site.url;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
});

it("with the public key, identify, a built-in track and a page land on the visitor's person; a custom name is refused and counted", async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const requests: string[] = [];
  tab.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  await tab.goto(`${siteUrl}/shop`);
  await tab.waitForFunction(() => document.body?.dataset.done, undefined, { timeout: 20_000 });
  const done = JSON.parse((await tab.evaluate(() => document.body.dataset.done))!);
  await context.close();
  expect(done).toEqual({ anonymousId: expect.any(String), failed: 0 });

  // Nothing left for Segment's servers (or anywhere else): the site, and the api's Segment paths, one post per call.
  const api = new URL(t.url).host;
  expect(
    requests.filter((r) => !r.includes(`//localhost:${new URL(siteUrl).port}/`) && !r.includes(`//${api}/v1/`)),
  ).toEqual([]);
  const posts = requests.filter((r) => r.startsWith('POST ')).map((r) => new URL(r.slice(5)).pathname);
  expect(posts).toEqual(['/v1/i', '/v1/t', '/v1/p', '/v1/t']);

  const [person] = await t.db.query(
    `SELECT p.id, p.name, p.email, p.fields, p.os FROM people p JOIN identities i ON i.workspace_id = p.workspace_id AND i.person_id = p.id
      WHERE i.workspace_id = $1 AND i.kind = 'anon_id' AND i.value = $2`,
    [ws.workspace.id, done.anonymousId],
  );
  expect(person).toMatchObject({ name: 'Vera Rubin', email: 'vera@example.com', fields: { plan: 'pro' }, os: 'linux' });
  const keys = await t.db.query(
    `SELECT kind, value FROM identities WHERE workspace_id = $1 AND person_id = $2 ORDER BY kind`,
    [ws.workspace.id, person.id],
  );
  expect(keys).toEqual([
    { kind: 'account_id', value: 'u-browser' },
    { kind: 'anon_id', value: done.anonymousId },
    { kind: 'email', value: 'vera@example.com' },
  ]);
  const events = await t.db.query(
    `SELECT type, detail, source FROM events WHERE workspace_id = $1 AND person_id = $2 AND type <> 'stage_changed' ORDER BY occurred_at`,
    [ws.workspace.id, person.id],
  );
  expect(events).toEqual([
    { type: 'download', detail: null, source: expect.objectContaining({ path: '/shop', os: 'linux' }) },
    { type: 'pageview', detail: 'Pricing', source: expect.objectContaining({ path: '/shop' }) },
  ]);

  await t.app.get(HeartbeatService).flush();
  const rows = (await t.gql('{ heartbeat { action answer origin count } }', {}, ws.secretKey)).data.heartbeat;
  expect(rows).toContainEqual({ action: 'event', answer: 'unknown_event', origin: siteUrl, count: 1 });
  const metrics = (await t.request('GET', '/metrics', { key: ADMIN_TOKEN })).body as string;
  expect(metrics).toMatch(/^lifeline_events_total\{door="segment",outcome="unknown_event"\} 1$/m);
  expect(metrics).toMatch(/^lifeline_events_total\{door="segment",outcome="accepted"\} 3$/m);
}, 40_000);
