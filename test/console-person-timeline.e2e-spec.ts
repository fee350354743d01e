// A person's page in Chromium against the real api and worker (docs/console.md#a-persons-page): each kind of
// timeline row drawn as what it is, properties as key and value, times relative with the exact time on hover,
// the kinds to show by checkbox, and the summary beside the timeline on a wide screen, above it on a phone.
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { CreatedWorkspace } from '@app/workspaces';
import { openPage, SCREENSHOTS, screenshot, seriousViolations, useConsole } from './support/console';
import { useSmtp } from './support/smtp';
import { join } from 'node:path';

const SECRET = 'whsec_' + Buffer.from('lifeline-person-timeline-secret').toString('base64');
const smtp = useSmtp();
const c = useConsole({ worker: true, env: () => ({ SMTP_URL: smtp.url, EMAIL_WEBHOOK_SECRET: SECRET }) });
let ws: CreatedWorkspace;
let page: Page;
let personPath: string;

async function post(body: Record<string, unknown>): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect({ body, answer: answer.body }).toMatchObject({ body, answer: { ok: true } });
}

/** The email door saying the provider's email was opened, signed as the door checks. */
async function opened(providerId: string): Promise<void> {
  const raw = JSON.stringify({
    type: 'email.opened',
    created_at: new Date().toISOString(),
    data: { email_id: providerId },
  });
  const id = `msg_${providerId}`;
  const at = new Date();
  const answer = await c.t.request('POST', '/api/webhooks/email', {
    raw,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign(id, at, raw),
    },
  });
  expect(answer.body).toMatchObject({ ok: true });
}

const row = (type: string) => page.locator(`ol.timeline li[data-type="${type}"]`);
const summaryFact = (on: Page, term: string) => on.locator(`.person-summary dt:text-is("${term}") + dd`);

beforeAll(async () => {
  ws = await c.t.workspace();
  const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
  await post({
    type: 'pageview',
    email: 'ada@example.com',
    occurred_at: threeDaysAgo,
    source: {
      path: '/pricing',
      referrer: 'https://news.ycombinator.com/item?id=1',
      utm: { source: 'hn', medium: 'social' },
    },
  });
  await post({ type: 'signup', email: 'ada@example.com' });
  await post({ type: 'purchase', email: 'ada@example.com', value: 49, properties: { currency: 'usd', plan: 'pro' } });
  await post({
    events: [
      { type: 'support', from: 'ada@example.com', message: 'The export button does nothing.', topic: 'exports' },
    ],
  });
  await post({ type: 'pageview', anon_id: 'anon-ada-laptop' });
  await post({ events: [{ type: 'identify', email: 'ada@example.com', anon_id: 'anon-ada-laptop' }] });
  const sent = await c.t.request('POST', '/api/v1/messages', {
    key: ws.secretKey,
    body: { to: 'ada@example.com', subject: 'Your export, fixed', body: 'It works again.' },
  });
  expect(sent.body.providerId).toBeTruthy();
  await opened(sent.body.providerId);
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
  await openPage(page, c.t, '/people?q=ada%40');
  await page.getByRole('link', { name: 'ada@example.com', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'ada@example.com' }).waitFor();
  personPath = new URL(page.url()).pathname.replace('/console', '');
  await page.getByLabel('Note').fill('Called about the invoice.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await row('note').waitFor();
});

describe("A person's timeline", () => {
  it('draws each kind as what it is: a pageview by path and referrer, a purchase by value, a support message by words and topic, an email by subject and status, a stage change from → to, a merge, a note', async () => {
    await openPage(page, c.t, personPath);
    expect(await row('pageview').last().textContent()).toMatch(/Pageview\/pricing from news\.ycombinator\.com/);
    expect(await row('purchase').locator('.amount').textContent()).toBe('$49.00');
    expect(await row('support').locator('blockquote').textContent()).toBe('The export button does nothing.');
    expect(await row('support').locator('.headline').textContent()).toBe('Topic: exports');
    expect(await row('email_sent').locator('.subject').textContent()).toBe('Your export, fixed');
    expect(await row('email_sent').locator('.badge').textContent()).toBe('opened');
    expect(await row('stage_changed').locator('.stage-move').allTextContents()).toEqual([
      'Account → Purchaser',
      'No stage → Account',
    ]);
    expect(await row('merged').textContent()).toMatch(/Joined with another record: per_/);
    expect(await row('note').textContent()).toMatch(/by .*Called about the invoice\./);
  });

  it('shows properties as key and value, never as JSON, and never the word null', async () => {
    await openPage(page, c.t, personPath);
    const purchase = row('purchase');
    expect(await purchase.locator('dl.key-values dt').allTextContents()).toEqual(['plan']);
    expect(await purchase.locator('dl.key-values dd').allTextContents()).toEqual(['pro']);
    expect((await row('pageview').last().locator('dl.key-values dt').allTextContents()).sort()).toEqual([
      'utm.medium',
      'utm.source',
    ]);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toMatch(/[{}]|"\w+":/);
    expect(text).not.toMatch(/\bnull\b/);
  });

  it('says when as people do (3 days ago), with the exact time on hover and for machines', async () => {
    await openPage(page, c.t, personPath);
    const when = row('pageview').last().locator('time');
    expect(await when.textContent()).toBe('3 days ago');
    const at = new Date((await when.getAttribute('datetime'))!);
    expect(Date.now() - at.getTime()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(await when.getAttribute('title')).toMatch(new RegExp(String(at.getFullYear())));
    expect(await row('note').locator('time').textContent()).toMatch(/^(just now|\d+ minutes? ago)$/);
  });

  it('filters by a checkbox per kind on the timeline (in the URL), and Show every kind undoes it', async () => {
    await openPage(page, c.t, personPath);
    const kinds = page.getByRole('group', { name: 'Show' });
    expect(await kinds.getByRole('checkbox').count()).toBe(8);
    await kinds.getByRole('checkbox', { name: /^Purchase \d/ }).check();
    await page.waitForURL(/[?&]types=purchase/);
    await page.locator('ol.timeline li[data-type="pageview"]').first().waitFor({ state: 'detached' });
    expect(await page.locator('ol.timeline li').evaluateAll((li) => li.map((l) => l.dataset.type))).toEqual([
      'purchase',
    ]);
    await kinds.getByRole('checkbox', { name: /^Note \d/ }).check();
    await page.waitForURL(/[?&]types=purchase%2Cnote|types=purchase,note/);
    await row('note').waitFor();
    expect(await kinds.getByRole('checkbox', { name: /^Note \d/ }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show every kind' }).click();
    await row('pageview').first().waitFor();
    expect(new URL(page.url()).searchParams.get('types')).toBeNull();
  });

  it('puts the summary (stage, value, last seen, first touch) beside the timeline on a wide screen, the timeline from the top', async () => {
    await openPage(page, c.t, personPath);
    expect(await summaryFact(page, 'Stage').textContent()).toBe('Purchaser');
    expect(await summaryFact(page, 'Value').textContent()).toBe('49');
    expect(await summaryFact(page, 'Last seen').locator('time').getAttribute('datetime')).toBeTruthy();
    expect(await summaryFact(page, 'First touch').textContent()).toBe(
      'hn / social · from news.ycombinator.com · landed on /pricing',
    );
    const summary = (await page.locator('.person-summary').boundingBox())!;
    const timeline = (await page.getByRole('heading', { level: 2, name: 'Timeline' }).boundingBox())!;
    expect(timeline.y).toBeLessThan(250);
    expect(summary.x + summary.width).toBeLessThanOrEqual(timeline.x);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'person-timeline');
    await page.setViewportSize({ width: 1100, height: 1100 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-person.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('stacks the summary above the timeline at phone width (390 px) without scrolling sideways', async () => {
    const phone = await c.browser.newContext({ viewport: { width: 390, height: 844 } });
    const cookies = await page.context().cookies();
    await phone.addCookies(cookies);
    const small = await phone.newPage();
    await openPage(small, c.t, personPath);
    await small.locator('ol.timeline li').first().waitFor();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const summary = (await small.locator('.person-summary').boundingBox())!;
    const timeline = (await small.getByRole('heading', { level: 2, name: 'Timeline' }).boundingBox())!;
    expect(summary.y + summary.height).toBeLessThanOrEqual(timeline.y);
    expect(await seriousViolations(small)).toEqual([]);
    await screenshot(small, 'person-timeline-phone');
    await phone.close();
  });
});
