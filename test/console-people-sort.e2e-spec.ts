// The console's People page in Chromium against the real api: last seen, revenue, stage and engaged columns,
// sorting by each from its header (docs/console.md#people), anonymous visitors by where they came from, the
// filters kept while sorted, and 390 px wide without the page scrolling sideways, in both themes.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { openPage, seriousViolations, useConsole } from './support/console';

const c = useConsole();
let ws: CreatedWorkspace;
let page: Page;

async function post(body: Record<string, unknown>): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect(answer.body).toMatchObject({ ok: true });
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const table = (on: Page) => on.getByRole('region', { name: 'People found' });
/** The first cell of each row, as shown. */
const people = (on: Page) =>
  table(on)
    .locator('tbody td.who a')
    .evaluateAll((links) => links.map((link) => link.textContent));
const header = (on: Page, name: string) => table(on).getByRole('columnheader', { name });

beforeAll(async () => {
  ws = await c.t.workspace();
  await post({ type: 'signup', email: 'ada@example.com', occurred_at: hoursAgo(30) });
  await post({ type: 'purchase', email: 'ada@example.com', value: 49, occurred_at: hoursAgo(29) });
  await post({ type: 'purchase', email: 'bo@example.com', value: 120.5, occurred_at: hoursAgo(5) });
  await post({ type: 'pageview', email: 'cy@example.com', occurred_at: hoursAgo(2) });
  await post({
    type: 'pageview',
    anon_id: 'visitor-news',
    source: { path: '/pricing', utm: { source: 'newsletter', medium: 'email' } },
    occurred_at: hoursAgo(1),
  });
  await post({ type: 'pageview', anon_id: 'visitor-bare' });
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
});

describe('People', () => {
  it('shows each person with stage, engaged, revenue, last seen and first seen; an anonymous visitor by where they came from', async () => {
    await openPage(page, c.t, '/people');
    await table(page).waitFor();
    for (const name of ['Person', 'Stage', 'Engaged', 'Revenue', 'Last seen', 'First seen'])
      await header(page, name).waitFor();
    const bo = table(page).getByRole('row').filter({ hasText: 'bo@example.com' });
    expect(await bo.locator('td').allTextContents()).toEqual([
      'bo@example.com',
      'Purchaser',
      'Yes',
      '120.5',
      '5 hours ago',
      '5 hours ago',
    ]);
    const visitor = table(page).getByRole('row').filter({ hasText: 'Visitor from newsletter' });
    expect(await visitor.locator('td.who').textContent()).toBe('Visitor from newsletter landed on /pricing');
    expect(await table(page).getByRole('link', { name: 'Anonymous visitor' }).count()).toBe(1);
    expect(await table(page).getByText('visitor-news').count()).toBe(0);
    await visitor.getByRole('link', { name: 'Visitor from newsletter' }).click();
    await page.waitForURL(/\/console\/people\/per_/);
  });

  it('sorts by a column from its header, most first, then again least first, with the order in the URL', async () => {
    await openPage(page, c.t, '/people');
    await header(page, 'Revenue').getByRole('button').click();
    await page.waitForURL(/[?&]sort=revenue/);
    await table(page).getByRole('link', { name: 'bo@example.com' }).waitFor();
    expect((await people(page)).slice(0, 2)).toEqual(['bo@example.com', 'ada@example.com']);
    expect(await header(page, 'Revenue').getAttribute('aria-sort')).toBe('descending');

    await header(page, 'Revenue').getByRole('button').click();
    await page.waitForURL(/[?&]dir=asc/);
    await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]'));
    expect((await people(page)).slice(-2)).toEqual(['ada@example.com', 'bo@example.com']);

    await header(page, 'Last seen').getByRole('button').click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'last_seen' && !url.searchParams.has('dir'));
    await page.waitForFunction(
      () => document.querySelector('th[aria-sort="descending"]')?.textContent === 'Last seen▼',
    );
    expect((await people(page)).slice(1)).toEqual([
      'Visitor from newsletter',
      'cy@example.com',
      'bo@example.com',
      'ada@example.com',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('keeps the filters while sorted, and pages within the order', async () => {
    await openPage(page, c.t, '/people?sort=last_seen&dir=asc');
    await page.getByLabel('Engaged').selectOption({ label: 'Yes' });
    await page.waitForURL(
      (url) => url.searchParams.get('engaged') === 'yes' && url.searchParams.get('sort') === 'last_seen',
    );
    await page
      .getByRole('status')
      .filter({ hasText: /^2 people$/ })
      .waitFor();
    expect(await people(page)).toEqual(['ada@example.com', 'bo@example.com']);
    await page.getByLabel('Search people').fill('bo@');
    await page.waitForURL(/[?&]q=bo%40/);
    await page
      .getByRole('status')
      .filter({ hasText: /^1 person$/ })
      .waitFor();
    expect(page.url()).toMatch(/sort=last_seen/);
  });

  it.each(['light', 'dark'] as const)(
    'at 390 px (%s theme) the page does not scroll sideways: the table scrolls inside its box',
    async (theme) => {
      const phone = await c.signIn(ws.secretKey);
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.emulateMedia({ colorScheme: theme });
      await openPage(phone, c.t, '/people?sort=revenue');
      await table(phone).getByRole('link', { name: 'bo@example.com' }).waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await header(phone, 'First seen').isVisible()).toBe(false);
      expect(await seriousViolations(phone)).toEqual([]);
    },
  );
});
