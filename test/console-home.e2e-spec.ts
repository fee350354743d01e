// The console's Home page in Chromium against the real api and worker (docs/console.md#home): signing in
// lands on it; its figures are what was posted (people by stage, new people and events today against
// yesterday at the same time, the engaged, the last hour's posts, webhook addresses by health, automations
// with failed runs), each a link to the page behind it, all read in at most two GraphQL requests.
// RETRY_UNIT_MS=1 makes a failing address use its six attempts in about a second.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually } from './harness';
import { screenshot, seriousViolations, useConsole } from './support/console';
import { receiver } from './support/receiver';

const c = useConsole({ worker: true, env: { RETRY_UNIT_MS: '1', WEBHOOK_DISABLE_AFTER_DAYS: '365' } });
let ws: CreatedWorkspace;
let page: Page;
let failing: Awaited<ReturnType<typeof receiver>>;
let healthy: Awaited<ReturnType<typeof receiver>>;
let posts = 0;

const DAY_MS = 86_400_000;
/** Yesterday, halfway from its UTC midnight to the time of day it is now: before "this time yesterday". */
function earlierYesterday(): string {
  const now = Date.now();
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  return new Date(midnight - DAY_MS + Math.floor((now - midnight) / 2)).toISOString();
}

async function post(body: Record<string, unknown>, ok = true): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  posts += 1;
  expect(answer.body).toMatchObject({ ok });
}

async function gql(query: string): Promise<any> {
  const answer = await c.t.gql(query, {}, ws.secretKey);
  expect(answer.errors).toBeUndefined();
  return answer.data;
}

/** The Home page's GraphQL requests while it loads from the address bar, and the page signed in. */
async function openHome(on: Page): Promise<number> {
  let requests = 0;
  const count = (request: { url(): string }) => {
    if (new URL(request.url()).pathname === '/graphql') requests += 1;
  };
  on.on('request', count);
  await on.goto(`${c.t.url}/console/home`);
  await on.getByRole('heading', { level: 2, name: 'Automations with failures' }).waitFor();
  await on.getByRole('link', { name: /posts in the last hour/ }).waitFor();
  await on.waitForLoadState('networkidle');
  on.off('request', count);
  return requests;
}

beforeAll(async () => {
  failing = await receiver(() => 500);
  healthy = await receiver(() => 200);
  ws = await c.t.workspace();
  await gql(`mutation { a: createWebhookEndpoint(input: {url: "${failing.url}/a", triggers: ["event"]}) { secret }
    b: createWebhookEndpoint(input: {url: "${healthy.url}/b", triggers: ["event"]}) { secret }
    c: createWebhookEndpoint(input: {url: "${healthy.url}/c", triggers: ["subscribed"]}) { secret } }`);
  await gql('mutation { createTemplate(input: {name: "hello", subject: "Hello there", body: "Hi there"}) { id } }');
  const made = await gql(`mutation {
    a: createAutomation(input: {name: "Greet visitors", trigger: {kind: "event", event: "pageview"},
      steps: [{kind: "send_email", template: "hello"}]}) { automation { id } }
    b: createAutomation(input: {name: "Welcome", trigger: {kind: "event", event: "signup"}, steps: []}) { automation { id } }
  }`);
  await gql(`mutation { setAutomationStatus(id: "${made.a.automation.id}", status: "running") { id } }`);

  // Yesterday before this time: two sign up, one of them buys. Today: two visitors (one twice), one signs
  // up, yesterday's first buyer buys; one post is refused.
  const yesterday = earlierYesterday();
  await post({ type: 'signup', email: 'y1@example.com', occurred_at: yesterday });
  await post({ type: 'signup', email: 'y2@example.com', occurred_at: yesterday });
  await post({ type: 'purchase', email: 'y2@example.com', value: 10, occurred_at: yesterday });
  await post({ type: 'pageview', anon_id: 'visitor-1' });
  await post({ type: 'pageview', anon_id: 'visitor-2' });
  await post({ type: 'pageview', anon_id: 'visitor-1' });
  await post({ type: 'signup', email: 't3@example.com' });
  await post({ type: 'purchase', email: 'y1@example.com', value: 20 });
  await post({ type: 'pageview' }, false);

  // The worker delivers and runs: address a fails every attempt, b succeeds; each visit's email is refused.
  await eventually(async () => {
    const data = await gql('{ webhookEndpoints { url successRate } automations { name runs { status } } }');
    const rate = (path: string) => data.webhookEndpoints.find((e: { url: string }) => e.url.endsWith(path)).successRate;
    const greet = data.automations.find((a: { name: string }) => a.name === 'Greet visitors');
    return rate('/a') === 0 && rate('/b') === 1 && greet.runs.filter((r: any) => r.status === 'failed').length === 3;
  }, 30_000);
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await failing?.close();
  await healthy?.close();
});

describe('Home', () => {
  it('signing in lands on Home, the first entry of the menu', async () => {
    const context = await c.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const fresh = await context.newPage();
    await fresh.goto(`${c.t.url}/sign-in?next=${encodeURIComponent('/console')}`);
    await fresh.getByLabel('Secret key').fill(ws.secretKey);
    await fresh.getByRole('button', { name: 'Sign in', exact: true }).click();
    await fresh.waitForURL((at) => at.pathname === '/console/home');
    await fresh.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const menu = fresh.getByRole('navigation', { name: 'Console' }).getByRole('link');
    await expect(menu.first().textContent()).resolves.toBe('Home');
    await expect(menu.first().getAttribute('aria-current')).resolves.toBe('page');
    await context.close();
  });

  it('shows the figures that were posted, each linking to the page behind it, read in at most two requests', async () => {
    expect(await openHome(page)).toBeLessThanOrEqual(2);
    const stages = page.getByRole('region', { name: 'People by stage' }).getByRole('listitem');
    const bars = await stages.evaluateAll((items) => items.map((li) => li.textContent));
    expect(bars).toEqual([
      'Downloader0',
      'Activated0',
      'Account1',
      'Trial0',
      'Purchaser2',
      'Repeat0',
      'Churned0',
      'None yet2',
    ]);
    await expect(page.getByRole('link', { name: 'Purchaser' }).getAttribute('href')).resolves.toBe(
      '/console/people?stage=purchaser',
    );

    const card = (name: string) => page.getByRole('region', { name });
    await expect(card('New people').textContent()).resolves.toBe(
      'New people3 new today2 by this time yesterday (+50%)',
    );
    await expect(card('Events').textContent()).resolves.toBe('Events5 events today3 by this time yesterday (+67%)');
    await expect(card('Engaged people').getByRole('link').textContent()).resolves.toBe('3 engaged');
    await expect(card('Engaged people').getByRole('link').getAttribute('href')).resolves.toBe(
      '/console/people?engaged=yes',
    );
    const lastHour = card('Posts in the last hour');
    await expect(lastHour.getByRole('link').textContent()).resolves.toBe(`${posts} posts in the last hour`);
    await expect(
      lastHour.getByRole('list', { name: 'Posts by answer' }).getByRole('listitem').allTextContents(),
    ).resolves.toEqual([`recorded: ${posts - 1}`, 'no_identity: 1']);

    const hooks = card('Webhook addresses').getByRole('list', { name: 'Addresses by health' });
    await expect(hooks.locator(':scope > li > a').allTextContents()).resolves.toEqual([
      'Failing (under 95% of attempts succeeded in the last day): 1',
      'No attempts in the last day: 1',
      'Healthy (95% or more succeeded): 1',
    ]);
    await expect(hooks.getByRole('link', { name: `${failing.url}/a` }).getAttribute('href')).resolves.toMatch(
      /^\/console\/webhooks\/whe_/,
    );
    const failures = card('Automations with failures').getByRole('link');
    await expect(failures.allTextContents()).resolves.toEqual(['#1 Greet visitors: 3 failed of the latest 3 runs']);

    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'home');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'home-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it("a figure's link opens the page behind it", async () => {
    await openHome(page);
    await page.getByRole('link', { name: 'Purchaser' }).click();
    await page.waitForURL(/\/console\/people\?stage=purchaser/);
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    await openHome(page);
    await page.getByRole('link', { name: /Greet visitors/ }).click();
    await page.getByRole('heading', { level: 1, name: /Greet visitors/ }).waitFor();
  });
});
