// The console's People, Person and Live events pages in Chromium against the real api and
// worker, with a real SMTP server so a sent email really leaves.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually, memberKey } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';
import { useSmtp } from './support/smtp';

const smtp = useSmtp();
const c = useConsole({
  worker: true,
  env: () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }),
});
let ws: CreatedWorkspace;
let page: Page;

async function post(body: Record<string, unknown>): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect(answer.body).toMatchObject({ ok: true });
}

const stageOf = (on: Page) => on.locator('dl.facts dt:text-is("Stage") + dd');
const timeline = (on: Page) => on.getByRole('list', { name: 'Timeline' });
const typesOn = (on: Page) =>
  timeline(on)
    .locator('li')
    .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.type));

async function openPerson(email: string): Promise<void> {
  await openPage(page, c.t, `/people?q=${encodeURIComponent(email)}`);
  await page.getByRole('link', { name: email, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: email }).waitFor();
}

beforeAll(async () => {
  ws = await c.t.workspace();
  // The api starts its render threads with its first render, each loading the TypeScript sources at the
  // lowest priority: seconds on a busy machine. A template saved meanwhile (parsed in a thread) starts them,
  // so Send email's wait below is the send's own.
  const saving = c.t.gql(
    'mutation { createTemplate(input: {name: "welcome", subject: "Welcome", body: "Hello {{ person.name }}"}) { id } }',
    {},
    ws.secretKey,
  );
  await post({ type: 'signup', email: 'ada@example.com' });
  await post({ type: 'purchase', email: 'ada@example.com', value: 49 });
  await post({ type: 'pageview', email: 'lurker@example.com' });
  for (let n = 10; n < 36; n++) await post({ type: 'pageview', email: `paged-${n}@example.com` });
  for (let n = 0; n < 55; n++)
    await post({ type: n === 0 ? 'signup' : 'pageview', email: 'busy@example.com', properties: { n } });
  expect((await saving).errors).toBeUndefined();
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
});

describe('People', () => {
  it('finds people made by posted events by typing in Search people; the result opens their page: email as heading, Stage in the spec spelling, the posted types on the Timeline', async () => {
    await openPage(page, c.t, '/people');
    await page.getByLabel('Search people').fill('ada@');
    await page.waitForURL(/[?&]q=ada%40/);
    await page
      .getByRole('status')
      .filter({ hasText: /^1 person$/ })
      .waitFor();
    expect(await page.getByRole('link', { name: 'lurker@example.com' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'people');

    await page.getByRole('link', { name: 'ada@example.com', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'ada@example.com' }).waitFor();
    expect(await stageOf(page).textContent()).toBe('Purchaser');
    await timeline(page).locator('li[data-type="purchase"]').waitFor();
    expect(await typesOn(page)).toEqual(expect.arrayContaining(['purchase', 'signup']));
  });

  it("filters by stage and engaged in the URL, and pages by cursor with the count (Next, Previous and the browser's Back)", async () => {
    await openPage(page, c.t, '/people');
    await page.getByLabel('Stage').selectOption({ label: 'Purchaser' });
    await page.waitForURL(/[?&]stage=purchaser/);
    await page
      .getByRole('status')
      .filter({ hasText: /^1 person$/ })
      .waitFor();
    expect(await page.getByRole('link', { name: 'ada@example.com' }).count()).toBe(1);

    await openPage(page, c.t, '/people?q=paged-&engaged=no');
    await page
      .getByRole('status')
      .filter({ hasText: /^26 people$/ })
      .waitFor();
    expect(await page.getByRole('link', { name: /^paged-/ }).count()).toBe(25);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/[?&]after=/);
    await page.getByRole('link', { name: 'paged-10@example.com' }).waitFor();
    expect(await page.getByRole('link', { name: /^paged-/ }).count()).toBe(1);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('link', { name: 'paged-35@example.com' }).waitFor();
    expect(new URL(page.url()).searchParams.get('after')).toBeNull();
    await page.goBack();
    await page.getByRole('link', { name: 'paged-10@example.com' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'paged-35@example.com' }).waitFor();
  });
});

describe('Person', () => {
  it('an email sent from Send email to an engaged person appears in the emails list and leaves by SMTP', async () => {
    await openPerson('ada@example.com');
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.getByLabel('Subject').fill('Welcome aboard');
    await page.getByLabel('Body').fill('Hello there, **friend**.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('table', { name: 'Emails' }).getByText('Welcome aboard').waitFor();
    const mail = await eventually(async () => smtp.received.find((m) => m.raw.includes('Welcome aboard')));
    expect(mail.to).toEqual(['ada@example.com']);
  });

  it('a note added appears on the Timeline, and ticking Note among the kinds (in the URL) keeps only notes', async () => {
    await openPerson('ada@example.com');
    await page.getByLabel('Note').fill('Called about the invoice.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await timeline(page).getByText('Called about the invoice.').waitFor();
    await page
      .getByRole('group', { name: 'Show' })
      .getByRole('checkbox', { name: /^Note \d/ })
      .check();
    await page.waitForURL(/[?&]types=note/);
    await timeline(page).locator('li').first().waitFor();
    await eventually(async () => (await typesOn(page)).every((type) => type === 'note'));
    expect(await seriousViolations(page)).toEqual([]);
    await openPage(page, c.t, new URL(page.url()).pathname.replace('/console', ''));
    await screenshot(page, 'person');
  });

  it('the Timeline shows the newest 50 entries; More reads the next ones on demand, oldest last', async () => {
    await openPerson('busy@example.com');
    await timeline(page).locator('li').first().waitFor();
    expect(await timeline(page).locator('li').count()).toBe(50);
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await timeline(page).locator('li').nth(55).waitFor();
    expect((await typesOn(page)).at(-1)).toBe('signup');
    expect(await page.getByRole('button', { name: 'More', exact: true }).count()).toBe(0);
  });

  it('for a person not engaged, sending shows the service sentence of not_engaged in role alert', async () => {
    await openPerson('lurker@example.com');
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.getByLabel('Subject').fill('Hello');
    await page.getByLabel('Body').fill('Are you there?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Email goes only to people who bought, signed up.*\(not_engaged\)$/);
    expect(await page.getByRole('table', { name: 'Emails' }).count()).toBe(0);
  });

  it('a member may send email (as the API lets any member) but sees Add note disabled with the reason', async () => {
    const member = await c.signIn((await memberKey(c.t, ws, 'member@example.com')).secretKey);
    await openPage(member, c.t, '/people?q=ada');
    await member.getByRole('link', { name: 'ada@example.com' }).click();
    await member.getByRole('heading', { level: 1, name: 'ada@example.com' }).waitFor();
    expect(await member.getByRole('button', { name: 'Send email' }).isEnabled()).toBe(true);
    expect(await member.getByRole('button', { name: 'Add note' }).isDisabled()).toBe(true);
    await member.getByText('Only owners and admins can change this').waitFor();
    await member.context().close();
  });
});

describe('Data on request', () => {
  it('Download data saves the person as JSON; Erase person (confirmed) erases them, shows what went, and search no longer finds them; a member sees Erase person disabled with the reason', async () => {
    await post({ type: 'signup', email: 'leaving@example.com' });
    const member = await c.signIn((await memberKey(c.t, ws, 'reader@example.com')).secretKey);
    await openPage(member, c.t, '/people?q=leaving');
    await member.getByRole('link', { name: 'leaving@example.com' }).click();
    expect(await member.getByRole('button', { name: 'Download data' }).isEnabled()).toBe(true);
    expect(await member.getByRole('button', { name: 'Erase person' }).isDisabled()).toBe(true);
    await member.getByText('Only owners and admins can erase a person.').waitFor();
    await member.context().close();

    await openPerson('leaving@example.com');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download data' }).click(),
    ]);
    const saved = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(saved.person).toMatchObject({ email: 'leaving@example.com' });
    expect(saved.timeline.map((row: { type: string }) => row.type)).toContain('signup');

    await page.getByRole('button', { name: 'Erase person' }).click();
    await page.getByRole('button', { name: 'Yes, erase' }).click();
    const status = page.getByRole('status').filter({ hasText: /^Erased: / });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/ids? now suppressed/);
    expect(await seriousViolations(page)).toEqual([]);

    await openPage(page, c.t, '/people?q=leaving');
    await page.getByText('No one matches.', { exact: false }).waitFor();
  });
});

describe('Live events', () => {
  it('shows an event posted while the page is open, none while paused, and what came meanwhile on Resume', async () => {
    const live = await c.signIn(ws.secretKey);
    await live.clock.install();
    await openPage(live, c.t, '/live');
    await live.getByRole('link', { name: 'ada@example.com' }).first().waitFor();
    await post({ type: 'pageview', email: 'live-a@example.com' });
    await live.getByRole('link', { name: 'live-a@example.com' }).waitFor();
    expect(await seriousViolations(live)).toEqual([]);
    await screenshot(live, 'live-events');

    await live.getByRole('button', { name: 'Pause' }).click();
    await live
      .getByRole('status')
      .filter({ hasText: /^Paused/ })
      .waitFor();
    const polls: string[] = [];
    live.on('request', (request) => void (request.postData()?.includes('LiveEvents') && polls.push(request.url())));
    expect(await live.getByRole('button', { name: 'Resume' }).getAttribute('aria-pressed')).toBe('true');
    await post({ type: 'pageview', email: 'live-b@example.com' });
    // Ten seconds of the page's time (five polls were it still polling), without waiting for them.
    await live.clock.pauseAt(Date.now() + 1_000);
    await live.clock.runFor(10_000);
    await live.evaluate(() => 0);
    expect(polls).toEqual([]);
    expect(await live.getByRole('link', { name: 'live-b@example.com' }).count()).toBe(0);
    await live.clock.resume();

    await live.getByRole('button', { name: 'Resume' }).click();
    await live.getByRole('link', { name: 'live-b@example.com' }).waitFor();
    expect(await live.getByRole('button', { name: 'Pause' }).getAttribute('aria-pressed')).toBe('false');
    await live.context().close();
  });
});
