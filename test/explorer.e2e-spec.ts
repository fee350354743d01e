// The GraphQL explorer works offline. GraphiQL, React and its styles come from the
// api itself; the page runs a query in Chromium with every request outside the api blocked.
import type { Browser } from 'playwright-core';
import { useApp } from './harness';
import { launchBrowser } from './support/browser';

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
  expect(html).toContain('GraphiQL.createFetcher');
  expect(html).not.toMatch(/https?:\/\//);
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  expect(assets).toHaveLength(4);
  for (const asset of assets) {
    const answer = await fetch(`${t.url}${asset}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await answer.text()).length).toBeGreaterThan(1000);
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
