// The console's Automations, Lists, Templates and Charts pages in Chromium against the real
// api: an automation with a webhook trigger is written on the page, its own page shows its start
// address, Start makes it running and a post to the address shows a run with its log; a list is
// created (0 subscribers) and renamed; a template is refused for a Liquid syntax error and previewed
// for a person made by a posted event; a chart's table shows the numbers posted and the URL keeps the
// question; a member sees every changing control disabled with the reason; axe finds nothing serious.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { memberKey } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const console_ = useConsole();
const { t } = console_;

let ws: CreatedWorkspace;
let owner: Page;
let automationPath = '';

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  ws = await t.workspace();
  owner = await console_.signIn(ws.secretKey);
});

describe('Automations', () => {
  it('an automation written on the page with a webhook trigger is a draft; its page shows the start address with Copy; Start makes it running; a post to the address shows a run with its log', async () => {
    await openPage(owner, t, '/automations');
    await owner.getByText('No automations yet').waitFor();
    await owner.getByLabel('Name').fill('Welcome series');
    await owner.getByLabel('Starts when').selectOption('webhook');
    await owner.getByRole('button', { name: 'Add a wait' }).click();
    await owner.getByRole('button', { name: 'Add an HTTP request' }).click();
    await owner.getByRole('group', { name: 'Step 2: HTTP request' }).getByRole('button', { name: 'Move up' }).click();
    await owner.getByRole('group', { name: 'Step 1: HTTP request' }).getByRole('button', { name: 'Remove' }).click();
    const wait = owner.getByRole('group', { name: 'Step 1: Wait' });
    await wait.getByLabel('Wait for').fill('2');
    await wait.getByLabel('Unit').selectOption('hours');
    expect(await seriousViolations(owner)).toEqual([]);
    await owner.getByRole('button', { name: 'Create automation' }).click();

    await owner.getByRole('heading', { level: 1, name: 'Welcome series' }).waitFor();
    automationPath = new URL(owner.url()).pathname;
    expect(automationPath).toMatch(/^\/console\/automations\/aut_/);
    await expect(owner.locator('dl.facts').textContent()).resolves.toMatch(
      /draft.*When its start address is posted to.*Wait 2 hours/,
    );
    const address = (await owner.locator('.start-address code.secret').textContent()) ?? '';
    expect(address).toMatch(new RegExp(`^${t.url}/api/webhooks/automation/aut_[A-Za-z0-9]+\\.[A-Za-z0-9_-]+$`));
    await owner.getByRole('button', { name: 'Copy' }).waitFor();

    await owner.getByRole('button', { name: 'Start', exact: true }).click();
    await owner.locator('dl.facts .badge', { hasText: 'running' }).waitFor();
    await owner.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect(
      (await t.request('POST', new URL(address).pathname, { body: { email: 'runner@example.com' } })).body,
    ).toEqual({ ok: true, status: 'started' });
    await owner.reload();
    const run = owner.getByRole('region', { name: 'Runs' }).getByRole('row').filter({ hasText: 'webhook' });
    await run.getByRole('link', { name: 'runner@example.com' }).waitFor();
    await run.getByRole('button', { name: /^Details of run_/ }).click();
    await owner.locator('ol.run-log').getByText('started by its address').waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'automation');

    await owner.getByRole('link', { name: 'Automations' }).click();
    const row = owner.getByRole('row').filter({ has: owner.getByRole('link', { name: 'Welcome series' }) });
    await expect(row.textContent()).resolves.toMatch(/1Welcome seriesWhen its start address is posted torunning/);
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'automations');
  });
});

describe('Lists', () => {
  it('a list created on the page shows with 0 subscribers and links to its people; Rename changes its name in place', async () => {
    await openPage(owner, t, '/lists');
    await owner.getByText('No lists yet').waitFor();
    await owner.getByLabel('Address').fill('newsletter');
    await owner.getByLabel('Name').fill('Newsletter');
    await owner.getByRole('button', { name: 'Create list' }).click();
    const row = owner.getByRole('row').filter({ hasText: 'newsletter' });
    await expect(row.getByRole('link', { name: 'Newsletter' }).getAttribute('href')).resolves.toBe(
      '/console/people?list=newsletter',
    );
    await expect(row.getByRole('cell').nth(2).textContent()).resolves.toBe('0');

    await row.getByRole('button', { name: 'Rename Newsletter' }).click();
    await owner.getByLabel('New name for newsletter').fill('Weekly news');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await row.getByRole('link', { name: 'Weekly news' }).waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'lists');
  });
});

describe('Templates', () => {
  it('a template with a Liquid syntax error is refused in role alert; a saved one is previewed for a person made by a posted event, the preview following the person field and each save', async () => {
    const made = await post({
      events: [
        { type: 'signup', email: 'ada@example.com' },
        { type: 'identify', email: 'ada@example.com', name: 'Ada Lovelace' },
      ],
    });
    expect(made.status).toBe(200);
    await openPage(owner, t, '/templates');
    await owner.getByText('No templates yet').waitFor();
    await owner.getByLabel('Name').fill('Welcome');
    await owner.getByLabel('Subject').fill('Hello {{ person.name }}');
    await owner.getByLabel('Body').fill('Hi **{{ person.name }}**, {% if person.name %}welcome');
    await owner.getByRole('button', { name: 'Create template' }).click();
    await expect(owner.getByRole('alert').textContent()).resolves.toMatch(/body.*if.*\(invalid_field\)/);
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'templates');

    await owner.getByLabel('Body').fill('Hi **{{ person.name }}**, welcome aboard.');
    await owner.getByRole('button', { name: 'Create template' }).click();
    await owner.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await owner.getByText('Save to preview your changes').waitFor();
    await owner.getByLabel('Preview for').fill('ada@example.com');
    await owner.locator('.preview dd', { hasText: 'Hello Ada Lovelace' }).waitFor();
    await owner.frameLocator('iframe[title="Preview"]').locator('strong', { hasText: 'Ada Lovelace' }).waitFor();
    await expect(owner.locator('iframe[title="Preview"]').getAttribute('sandbox')).resolves.toBe('');
    expect(new URL(owner.url()).searchParams.get('person')).toBe('ada@example.com');

    await owner.getByLabel('Body').fill('Dear {{ person.name }}, thank you.');
    await owner.getByRole('button', { name: 'Save', exact: true }).click();
    await owner.locator('.preview-text', { hasText: 'Dear Ada Lovelace, thank you.' }).waitFor();
    await owner.reload();
    await owner.locator('.preview-text', { hasText: 'Dear Ada Lovelace, thank you.' }).waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'template');
  });
});

describe('Charts', () => {
  it("the table shows the numbers posted; the URL keeps the question through a reload and back; a refused question shows the service's sentence", async () => {
    const events = [1, 2, 3].map((i) => ({ type: 'demo_click', email: `clicker${i % 2}@example.com`, value: 10 }));
    expect((await post({ events })).status).toBe(200);
    await openPage(owner, t, '/charts');
    await owner.getByLabel('Event').selectOption('demo_click');
    // The number in today's row (UTC), waited for: each question is asked again as the URL changes.
    const todayShows = (value: string) =>
      owner
        .getByRole('row', { name: new RegExp(`^${today()}`) })
        .getByRole('cell', { name: value, exact: true })
        .waitFor();
    await todayShows('3');
    await owner.getByLabel('Measure').selectOption('people');
    await todayShows('2');
    await owner.getByLabel('Measure').selectOption('sum_value');
    await todayShows('30');

    await owner.reload();
    await expect(owner.getByLabel('Event').inputValue()).resolves.toBe('demo_click');
    await expect(owner.getByLabel('Measure').inputValue()).resolves.toBe('sum_value');
    await todayShows('30');
    await owner.goBack();
    await todayShows('2');
    await expect(owner.getByLabel('Measure').inputValue()).resolves.toBe('people');
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'charts');

    await owner.getByLabel('Interval').selectOption('hour');
    await owner.getByLabel('Range').selectOption('90d');
    await expect(owner.getByRole('alert').textContent()).resolves.toMatch(/at most 1000 buckets.*\(invalid_field\)/);
  });
});

describe('a member', () => {
  it('sees every create, rename, save and status button disabled with the reason, and no start address', async () => {
    const member = await console_.signIn((await memberKey(t, ws, 'member@example.com')).secretKey);
    const reason = 'Only owners and admins can change this; you are a member (read-only).';
    for (const [path, button] of [
      ['/automations', 'Create automation'],
      ['/lists', 'Create list'],
      ['/templates', 'Create template'],
      [automationPath.replace('/console', ''), 'Pause'],
    ]) {
      await openPage(member, t, path);
      const control = member.getByRole('button', { name: button, exact: true });
      await expect(control.isDisabled()).resolves.toBe(true);
      await expect(
        control.getAttribute('aria-describedby').then((id) => member.locator(`[id="${id}"]`).textContent()),
      ).resolves.toBe(reason);
    }
    await expect(member.getByLabel('Name').isDisabled()).resolves.toBe(true);
    await expect(member.locator('.start-address').count()).resolves.toBe(0);
    await expect(member.getByRole('alert').count()).resolves.toBe(0);
    await openPage(member, t, '/lists');
    await expect(member.getByRole('button', { name: 'Rename Weekly news' }).isDisabled()).resolves.toBe(true);
  });
});
