// The GraphQL explorer works offline. GraphiQL, React and its styles come from the
// api itself; the page runs a query in Chromium with every request outside the api blocked.
import type { Browser } from 'playwright-core';
import { useApp } from './harness';
import { launchBrowser } from './support/browser';
import { EXPLORER_PAGE_POLICY } from '../apps/api/src/page-policy';

const t = useApp();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(() => browser?.close());

it('GET /graphql from a browser is the GraphiQL page, naming no other host', async () => {
  const page = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
  const html = await page.text();
  expect(page.status).toBe(200);
  expect(html).toContain('data-url="/graphql"');
  expect(html).not.toMatch(/https?:\/\//);
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(assets).toHaveLength(6);
  for (const asset of assets) {
    const answer = await fetch(`${t.url}${asset}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const text = await answer.text();
    expect(text.length).toBeGreaterThan(asset.includes('/explorer.') ? 40 : 1000);
    if (asset.includes('/explorer.js')) expect(text).toContain('GraphiQL.createFetcher');
  }
  expect((await t.request('GET', '/graphiql/package.json')).body).toMatchObject({ ok: false, error: 'not_found' });
});

it('renders and runs a query with nothing reachable but the api', async () => {
  const ws = await t.workspace();
  const context = await browser.newContext();
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url().startsWith(t.url)) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  await page.goto(`${t.url}/graphql`);
  await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
  const answer = await page.evaluate(async (key) => {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: '{ workspace { slug } }' }),
    });
    return response.json();
  }, ws.secretKey);
  expect(answer.data.workspace.slug).toBe(ws.workspace.slug);
  expect(outside).toEqual([]);
  await context.close();
}, 60_000);

describe("the page and its files carry the console's headers", () => {
  it('a policy of this service only, never framed, no sniffing, no referrer beyond the service', async () => {
    const page = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-security-policy')).toBe(EXPLORER_PAGE_POLICY);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style>|\sstyle=/);
    for (const [, asset] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const answer = await fetch(`${t.url}${asset}`);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('runs under that policy with no violation, and another site cannot frame it', async () => {
    const context = await browser.newContext();
    const violations: string[] = [];
    await context.route('http://elsewhere.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<iframe src="${t.url}/graphql"></iframe>` }),
    );
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${t.url}/graphql`);
    await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
    await page.locator('.graphiql-execute-button').click();
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('workspace'), {
      timeout: 20_000,
    });
    expect(violations).toEqual([]);
    const framing = await context.newPage();
    await framing.goto('http://elsewhere.test/');
    const frame = framing.frames().find((f) => f !== framing.mainFrame())!;
    await frame.waitForLoadState();
    const framed = await frame.evaluate(() => document.getElementById('graphiql') !== null).catch(() => false);
    expect(framed).toBe(false);
    await context.close();
  }, 60_000);
});
