// The console's Broadcasts in Chromium against the real api and worker and an SMTP server (docs/graphql.md#broadcasts):
// a broadcast composed to a list (its count shown), refused until the postal address is set in Settings (the refusal
// links there), a test send said where it went, then sent, paused, resumed and followed to sent on its page, one
// email per subscriber; a template's preview; and a member's read-only view.
import type { Locator, Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually, memberKey } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';
import { useSmtp } from './support/smtp';

const SUBSCRIBERS = 8;
const smtp = useSmtp();
// Two emails a second: the send lasts a few seconds, long enough to pause it halfway.
const c = useConsole({ worker: true, env: () => ({ SMTP_URL: smtp.url, BROADCAST_MESSAGES_PER_SECOND: '2' }) });
let ws: CreatedWorkspace;
let page: Page;
let broadcastUrl = '';

const readers = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}@example.com`);
const form = (on: Page) => on.getByRole('form', { name: 'New broadcast' });
const sentTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
/** The broadcast's state as its badge shows it (the page and each row of the list have one). */
const state = (on: Page | Locator, name: string) => on.locator('.badge').filter({ hasText: new RegExp(`^${name}$`) });

beforeAll(async () => {
  ws = await c.t.workspace();
  const made = await c.t.gql(
    'mutation { createList(input: {address: "news", name: "News"}) { id } ' +
      'createTemplate(input: {name: "monthly", subject: "The month for {{ person.email }}", body: "# Hello {{ person.email }}"}) { id } }',
    {},
    ws.secretKey,
  );
  expect(made.errors).toBeUndefined();
  const events = readers.map((email) => ({ type: 'subscribe', email, list: 'news', consent: 'Yes, send me news.' }));
  expect((await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events } })).status).toBe(200);
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
});

describe('the Broadcasts page', () => {
  it("composes a draft to a list showing its count, and a test is refused with a link to Settings' postal address", async () => {
    await openPage(page, c.t, '/broadcasts');
    await page.getByText('No broadcasts yet').waitFor();
    await form(page).getByLabel('Name').fill('March news');
    await form(page).getByLabel('List', { exact: true }).selectOption({ label: 'News (news)' });
    await form(page)
      .getByRole('status', { name: 'Audience now' })
      .filter({ hasText: '8 people subscribed now' })
      .waitFor();
    await form(page).getByRole('radio', { name: 'Write it here' }).check();
    await form(page).getByLabel('Subject').fill('News for {{ person.email }}');
    await form(page).getByLabel('Body').fill('Hello **{{ person.email }}**.');
    expect(await seriousViolations(page)).toEqual([]);
    await form(page).getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'March news' }).waitFor();
    broadcastUrl = new URL(page.url()).pathname.replace(/^\/console/, '');
    await state(page, 'Draft').waitFor();

    await page.getByRole('button', { name: 'Send a test' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'postalAddress' });
    await refusal.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await refusal.getByRole('link', { name: 'Set the postal address in Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Postal address').fill('1 Main Street\nSpringfield');
    await page.getByRole('form', { name: 'Workspace settings' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved.').waitFor();
  });

  it('says where the test send went, and the email arrives marked [Test]', async () => {
    await openPage(page, c.t, broadcastUrl);
    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByRole('status').filter({ hasText: 'A test went to owner@example.com' }).waitFor();
    const mail = await eventually(async () => sentTo('owner@example.com')[0]);
    expect(mail.raw).toMatch(/^Subject: \[Test\] News for owner@example\.com/m);
    expect(readers.flatMap(sentTo)).toEqual([]);
  });

  it('sends now once confirmed, pauses and resumes, and follows the progress to sent: one email each', async () => {
    await openPage(page, c.t, broadcastUrl);
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send it now' }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await state(page, 'Paused').waitFor();
    const bar = page.getByRole('progressbar', { name: 'Sending March news' });
    const reachedWhilePaused = await bar.evaluate((e) => (e as HTMLProgressElement).value);
    expect(reachedWhilePaused).toBeLessThan(SUBSCRIBERS);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'broadcast-paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await state(page, 'Sent').waitFor({ timeout: 20_000 });
    await page.getByText(`${SUBSCRIBERS} of ${SUBSCRIBERS}`).waitFor();
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    const recipients = page.getByRole('table', { name: 'Recipients of March news' });
    await recipients.getByRole('link', { name: 'reader0@example.com' }).waitFor();
    await page.getByRole('region', { name: 'Recipients' }).getByLabel('State').selectOption('failed');
    await page.getByText('No recipient of March news is failed.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'broadcast-sent');
    expect(readers.map((r) => sentTo(r).length)).toEqual(readers.map(() => 1));

    await openPage(page, c.t, '/broadcasts');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'March news' }) });
    await state(row, 'Sent').waitFor();
    expect(await row.getByText(`${SUBSCRIBERS} of ${SUBSCRIBERS}`).count()).toBe(1);
  });

  it('previews a chosen template for a person, and shows a member everything read-only', async () => {
    await openPage(page, c.t, '/broadcasts');
    await form(page).getByLabel('Template', { exact: true }).selectOption({ label: 'monthly' });
    await page.getByLabel('Preview for').fill('reader1@example.com');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.frameLocator('iframe[title="Preview"]');
    await preview.getByRole('heading', { name: 'Hello reader1@example.com' }).waitFor();

    const member = await memberKey(c.t, ws, 'viewer@example.com');
    const reader = await c.signIn(member.secretKey);
    await openPage(reader, c.t, '/broadcasts');
    expect(await form(reader).getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
    await reader.getByRole('link', { name: 'March news' }).click();
    await reader.getByRole('heading', { level: 1, name: 'March news' }).waitFor();
    await reader.getByText(`${SUBSCRIBERS} of ${SUBSCRIBERS}`).waitFor();
    expect(await seriousViolations(reader)).toEqual([]);
  });
});
