// The console's logs as tables in Chromium against the real api and worker (docs/console.md#logs): a webhook
// address's deliveries and an automation's runs as dense rows naming the person by email, a filter by state, a
// row opened for its body and answers, Retry on a delivery whose last attempt failed while it is still pending
// (the receiver gets it again), Send a test answering inline, 20 rows in well under 1,500 px of page, and at
// 390 px the table scrolls inside its frame, never the page. RETRY_UNIT_MS=60000 is the real schedule: a failed
// first attempt waits a minute, so only Retry sends the second within the test.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';
import { receiver } from './support/receiver';

const console_ = useConsole({ worker: true, env: { RETRY_UNIT_MS: '60000', WEBHOOK_DISABLE_AFTER_DAYS: '365' } });
const { t } = console_;

let ws: CreatedWorkspace;
let owner: Page;
let answering = 200;
let hook: Awaited<ReturnType<typeof receiver>>;
let endpointId = '';

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const table = (page: Page, name: string) => page.getByRole('region', { name }).getByRole('table');
/** The rows of a log (each delivery's or run's first row: the one with its disclosure button). */
const rows = (page: Page, name: string) =>
  table(page, name)
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /^Details of / }) });
const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

beforeAll(async () => {
  hook = await receiver(() => answering);
  ws = await t.workspace();
  owner = await console_.signIn(ws.secretKey);
  const made = await gql(
    'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
    { input: { url: `${hook.url}/hooks`, triggers: ['event'] } },
  );
  endpointId = made.createWebhookEndpoint.endpoint.id;
});
afterAll(() => hook?.close());

describe('a webhook address’s deliveries', () => {
  it('are rows of time, type, person by email, state, attempts and last answer; 20 of them fit in well under 1,500 px', async () => {
    for (let i = 0; i < 20; i++) expect((await post({ type: 'signup', email: `p${i}@example.com` })).status).toBe(200);
    await eventually(async () => hook.received.length === 20, 15_000);
    await openPage(owner, t, `/webhooks/${endpointId}`);
    await eventually(async () => (await rows(owner, 'Deliveries').count()) === 20 && true);
    const first = rows(owner, 'Deliveries').first();
    await first.getByRole('cell', { name: 'p19@example.com' }).waitFor();
    await expect(first.getByRole('link', { name: 'p19@example.com' }).getAttribute('href')).resolves.toMatch(
      /\/console\/people\/per_/,
    );
    await expect(first.textContent()).resolves.toMatch(/signup|event/);
    await first.getByText('succeeded', { exact: true }).waitFor();
    await expect(first.getByRole('cell').nth(5).textContent()).resolves.toBe('1/6');
    await expect(first.getByRole('cell').nth(6).textContent()).resolves.toMatch(/^200 answer \d+/);
    const head = await table(owner, 'Deliveries').getByRole('columnheader').allTextContents();
    expect(head).toEqual(['Details', 'Time', 'Type', 'Person', 'State', 'Attempts', 'Last answer', 'Action']);

    const height = await pageHeight(owner);
    expect(height).toBeLessThan(1_300);
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'webhook-log');
  });

  it('a row opens to show the body sent and every attempt with its answer, and closes again', async () => {
    const first = rows(owner, 'Deliveries').first();
    const disclose = first.getByRole('button', { name: /^Details of dlv_/ });
    await expect(disclose.getAttribute('aria-expanded')).resolves.toBe('false');
    await disclose.click();
    await expect(disclose.getAttribute('aria-expanded')).resolves.toBe('true');
    const details = owner.locator(`[id="${await disclose.getAttribute('aria-controls')}"]`);
    await expect(details.locator('pre').textContent()).resolves.toContain('"email": "p19@example.com"');
    const attempt = details.getByRole('row').filter({ has: owner.getByRole('cell') });
    await expect(attempt.count()).resolves.toBe(1);
    await expect(attempt.getByRole('cell').nth(2).textContent()).resolves.toBe('200');
    expect(await seriousViolations(owner)).toEqual([]);
    await disclose.click();
    await expect(details.isHidden()).resolves.toBe(true);
  });

  it('Send a test shows the delivery it made inline: its state and the answer of its attempt', async () => {
    answering = 500;
    await owner.getByRole('button', { name: 'Send a test' }).click();
    const sent = owner.locator('.sent-test');
    await sent.getByText(/attempt 1 answered 500/).waitFor({ timeout: 15_000 });
    await expect(sent.textContent()).resolves.toMatch(
      /^Test delivery dlv_\w+: pending attempt 1 answered 500 answer 21/,
    );
    // The log shows it at the top, by the test person, still pending: its next attempt is a minute away.
    const first = rows(owner, 'Deliveries').first();
    await first.getByText('test@example.com (test)').waitFor();
    await first.getByText('pending', { exact: true }).waitFor();
  });

  it('Retry on a delivery whose last attempt failed, still pending, sends it again now and the receiver gets it', async () => {
    answering = 200;
    const first = rows(owner, 'Deliveries').first();
    await first.getByRole('button', { name: /^Retry dlv_/ }).click();
    await first.getByText('succeeded', { exact: true }).waitFor({ timeout: 15_000 });
    await expect(first.getByRole('cell').nth(5).textContent()).resolves.toBe('2/6');
    await expect(first.getByRole('cell').nth(6).textContent()).resolves.toMatch(/^200 /);
    await expect(first.getByRole('button', { name: /^Retry/ }).count()).resolves.toBe(0);
    expect(hook.received.slice(-2).map((r) => [r.body.type, r.answered])).toEqual([
      ['test', 500],
      ['test', 200],
    ]);
    expect(hook.received.at(-1)!.raw).toBe(hook.received.at(-2)!.raw);
    await owner
      .locator('.sent-test')
      .getByText(/succeeded attempt 2 answered 200/)
      .waitFor({ timeout: 15_000 });
  });

  it('the state filter shows only that state’s deliveries, and says when there are none', async () => {
    await t.make.delivery(ws.workspace.id, endpointId, { type: 'test', state: 'failed', attempts: 6 });
    await owner.reload();
    await rows(owner, 'Deliveries').first().waitFor();
    await owner.getByLabel('State', { exact: true }).selectOption('failed');
    await eventually(async () => (await rows(owner, 'Deliveries').count()) === 1 && true);
    await rows(owner, 'Deliveries').first().getByText('failed', { exact: true }).waitFor();
    await rows(owner, 'Deliveries')
      .first()
      .getByRole('button', { name: /^Retry dlv_/ })
      .waitFor();
    await owner.getByLabel('State', { exact: true }).selectOption('pending');
    await owner.getByText('No pending deliveries.').waitFor();
    await owner.getByLabel('State', { exact: true }).selectOption('');
    await eventually(async () => (await rows(owner, 'Deliveries').count()) === 20 && true);
  });

  it('at 390 px the page does not scroll sideways: the table scrolls inside its frame', async () => {
    const phone = await console_.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await phone.newPage();
    await page.goto(`${t.url}/sign-in?next=${encodeURIComponent(`/console/webhooks/${endpointId}`)}`);
    await page.getByLabel('Secret key').fill(ws.secretKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await rows(page, 'Deliveries').first().waitFor();
    const widths = await page.evaluate(() => {
      const frame = document.querySelector('.log-frame')!;
      return { page: document.documentElement.scrollWidth, frame: frame.scrollWidth, shown: frame.clientWidth };
    });
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.frame).toBeGreaterThan(widths.shown);
    await phone.close();
  });
});

describe('an automation’s runs', () => {
  it('are rows of time, trigger, person by email, status, steps and last line, filtered by status, opened for the log; 20 fit in well under 1,500 px', async () => {
    await gql('mutation { createTemplate(input: {name: "hello", subject: "Hello", body: "Hi"}) { id } }');
    const created = await gql(
      'mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }',
      {
        input: {
          name: 'Greet visitors',
          trigger: { kind: 'event', event: 'pageview' },
          steps: [{ kind: 'send_email', template: 'hello' }],
        },
      },
    );
    const id = created.createAutomation.automation.id as string;
    await gql('mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }', { id });
    // p0…p19 signed up (engaged: the email goes); a stranger only visited (not engaged: the run fails).
    for (let i = 0; i < 19; i++) await post({ type: 'pageview', email: `p${i}@example.com` });
    await post({ type: 'pageview', email: 'stranger@example.com' });
    const RUNS = 'query($id: ID!) { automation(id: $id) { runs { status } } }';
    await eventually(
      async () =>
        ((await gql(RUNS, { id })).automation.runs as any[]).filter((r) => r.status !== 'running').length === 20,
      20_000,
    );

    await openPage(owner, t, `/automations/${id}`);
    await eventually(async () => (await rows(owner, 'Runs').count()) === 20 && true);
    const first = rows(owner, 'Runs').first();
    await first.getByRole('link', { name: 'stranger@example.com' }).waitFor();
    await first.getByText('failed', { exact: true }).waitFor();
    await expect(first.getByRole('cell').nth(2).textContent()).resolves.toBe('event pageview');
    await expect(first.getByRole('cell').nth(5).textContent()).resolves.toBe('1/1');
    await expect(first.getByRole('cell').nth(6).textContent()).resolves.toMatch(/not_engaged/);
    expect(await pageHeight(owner)).toBeLessThan(1_300);
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'automation-runs');

    await first.getByRole('button', { name: /^Details of run_/ }).click();
    const log = owner.locator('tr.details:not([hidden]) ol.run-log li');
    await expect(log.first().textContent()).resolves.toMatch(/started by event pageview/);

    await owner.getByLabel('Status', { exact: true }).selectOption('failed');
    await eventually(async () => (await rows(owner, 'Runs').count()) === 1 && true);
    await owner.getByLabel('Status', { exact: true }).selectOption('finished');
    await eventually(async () => (await rows(owner, 'Runs').count()) === 19 && true);
    await expect(rows(owner, 'Runs').getByText('failed', { exact: true }).count()).resolves.toBe(0);
    await owner.getByLabel('Status', { exact: true }).selectOption('waiting');
    await owner.getByText('No waiting runs.').waitFor();
  });
});
