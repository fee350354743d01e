// GET /api/docs, the REST reference page (Swagger UI), works offline. Its files come from
// the api itself; in Chromium, with every request outside the api refused, it lists every operation of
// /api/openapi.json, breaks none of its own content policy, and links to the GraphQL explorer and schema.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { apiDocsHtml } from '../apps/api/src/explorer/api-docs';
import { useApp } from './harness';
import { launchBrowser } from './support/browser';
import { seriousViolations } from './support/console';

const t = useApp();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(() => browser?.close());

type Paths = Record<string, Record<string, unknown>>;

/** Every "METHOD /path" of the document. */
function documented(paths: Paths): string[] {
  return Object.entries(paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

it('GET /api/docs is the page, naming no other host; its files are cached for a year', async () => {
  const answer = await fetch(`${t.url}/api/docs`);
  const html = await answer.text();
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-cache');
  expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(html).not.toMatch(/https?:\/\//);
  const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]);
  expect(assets).toHaveLength(4);
  for (const asset of assets) {
    expect(asset).toMatch(/\?v=[0-9a-f]{12}$/);
    const file = await fetch(`${t.url}${asset}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('content-type')).toMatch(/^(application\/javascript|text\/css); charset=utf-8$/);
    expect((await file.text()).length).toBeGreaterThan(100);
  }
  expect((await t.request('GET', '/api/docs/assets/package.json')).body).toMatchObject({
    ok: false,
    error: 'not_found',
  });
  expect((await t.request('GET', '/api/docs/../openapi.json')).status).toBe(200); // resolved by fetch, never a file read
});

it('GET /api/schema.graphql is the schema the api serves, as text', async () => {
  const answer = await fetch(`${t.url}/api/schema.graphql`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(await answer.text()).toBe(readFileSync(resolve(__dirname, '../schema.graphql'), 'utf8'));
});

it('links the GraphQL explorer only where the api serves it (not in production)', () => {
  expect(apiDocsHtml('0', true)).toContain('<a href="/graphql">');
  expect(apiDocsHtml('0', false)).not.toContain('<a href="/graphql">');
  expect(apiDocsHtml('0', false)).toContain('<a href="/api/schema.graphql">');
});

it('the reference page and the schema are no routes of the OpenAPI document', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  expect(documented(doc.paths).filter((route) => /\/api\/(docs|schema\.graphql)/.test(route))).toEqual([]);
});

/** The operations Swagger UI shows, as "METHOD /path". */
async function shownOperations(page: Page): Promise<string[]> {
  return page.locator('.opblock-summary').evaluateAll((blocks) =>
    blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
      const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
      return `${method.toUpperCase()} ${path}`;
    }),
  );
}

interface Opened {
  page: Page;
  /** Every request the page made that did not go to the api. */
  outside: string[];
  /** Console errors and uncaught exceptions: a script or style the policy refused shows here. */
  errors: string[];
}

/** /api/docs in a new browser context where only the api answers, once Swagger UI has drawn every operation. */
async function openReference(operations: number): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route('**/*', (route) =>
    route.request().url().startsWith(`${t.url}/`) ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  const opened: Opened = { page, outside: [], errors: [] };
  page.on('request', (request) => !request.url().startsWith(`${t.url}/`) && opened.outside.push(request.url()));
  page.on('console', (message) => message.type() === 'error' && opened.errors.push(message.text()));
  page.on('pageerror', (error) => opened.errors.push(error.message));
  await page.goto(`${t.url}/api/docs`);
  await page
    .locator('.opblock-summary')
    .nth(operations - 1)
    .waitFor({ timeout: 20_000 });
  return opened;
}

it('lists every route of /api/openapi.json in Chromium with nothing reachable but the api', async () => {
  const routes = documented((await t.request('GET', '/api/openapi.json')).body.paths);
  const { page, outside, errors } = await openReference(routes.length);
  expect((await shownOperations(page)).sort()).toEqual(routes);
  expect(await page.locator('nav a[href="/graphql"]').textContent()).toBe('GraphQL explorer');
  expect(await page.locator('nav a[href="/api/schema.graphql"]').textContent()).toBe('GraphQL schema (schema.graphql)');
  expect(await seriousViolations(page)).toEqual([]);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
  await page.context().close();
}, 60_000);

it('an integrator authorizes with a key and tries POST /api/v1/events from the page; axe finds nothing serious on the way', async () => {
  const { secretKey } = await t.workspace();
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const { page, outside, errors } = await openReference(documented(doc.paths).length);
  const violations: Record<string, string[]> = {};
  await page.getByRole('button', { name: 'Authorize' }).click();
  // The scheme the route names, by its name in the dialog ("<name> (http, Bearer)").
  const scheme = Object.keys(doc.paths['/api/v1/events'].post.security[0])[0];
  const form = page.locator('.modal-ux form').filter({ hasText: `${scheme} (http, Bearer)` });
  await form.locator('input').fill(secretKey);
  violations.authorize = await seriousViolations(page);
  await form.locator('button[type=submit]').click();
  await page.locator('.modal-ux .close-modal').click();

  const operation = page.locator('.opblock-post').filter({ has: page.locator('[data-path="/api/v1/events"]') });
  await operation.locator('.opblock-summary-control').click();
  violations.operation = await seriousViolations(page);
  await operation.getByRole('button', { name: 'Try it out' }).click();
  await operation
    .getByRole('textbox', { name: 'Request body' })
    .fill(JSON.stringify({ type: 'signup', email: 'ada@example.com' }));
  await operation.getByRole('button', { name: 'Execute' }).click();
  const answer = operation.locator('.live-responses-table tbody .response-col_status');
  await answer.waitFor();
  expect((await answer.textContent())?.trim()).toBe('200');
  violations.answer = await seriousViolations(page);

  expect(violations).toEqual({ authorize: [], operation: [], answer: [] });
  expect((await t.request('GET', '/api/v1/people/ada@example.com/messages', { key: secretKey })).status).toBe(200);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
  await page.context().close();
}, 60_000);
