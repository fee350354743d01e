// The console's Charts page in Chromium against the real api (docs/console.md#charts): it opens on the most
// frequent event of the last 30 days, charts several events at once with each one's total against the period
// before, its legend names the series (never "Time: --") and reads the bucket under the pointer, and
// nothing on the page moves while it loads (cumulative layout shift 0).
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole();
let ws: CreatedWorkspace;
let page: Page;

const DAY_MS = 86_400_000;
const dayOf = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
/** Noon (UTC) of the day so many days ago. */
const daysAgo = (days: number) => `${dayOf(days)}T12:00:00.000Z`;

async function post(events: Array<Record<string, unknown>>): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events } });
  expect(answer.body).toMatchObject({ ok: true });
}

/** The table's header and rows, as the text of their cells. */
async function table(on: Page): Promise<{ head: string[]; today: string[] }> {
  const numbers = on.getByRole('region', { name: 'The numbers' }).getByRole('table');
  await numbers.waitFor();
  const head = await numbers.locator('thead th').allTextContents();
  const today = await numbers.getByRole('row', { name: new RegExp(`^${dayOf(0)}`) }).locator('th, td');
  return { head, today: await today.allTextContents() };
}

/** The layout shifts since the page began to load (not caused by input), summed: what CLS adds up. */
async function layoutShift(on: Page): Promise<number> {
  return on.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
            if (!entry.hadRecentInput) sum += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(sum), 500);
      }),
  );
}

async function open(on: Page, path: string): Promise<void> {
  await on.goto(`${c.t.url}/console${path}`);
  await on.getByRole('region', { name: 'The numbers' }).waitFor();
  await on.waitForLoadState('networkidle');
}

beforeAll(async () => {
  ws = await c.t.workspace();
  // The last 30 days: five visits today and one ten days ago, three signups today. The 30 days before: two
  // signups (35 days ago). So pageview is the most frequent of the last 30 days.
  await post([
    ...[1, 2, 3, 4, 5].map((i) => ({ type: 'pageview', anon_id: `visitor-${i % 3}` })),
    { type: 'pageview', anon_id: 'visitor-9', occurred_at: daysAgo(10) },
    ...[1, 2, 3].map((i) => ({ type: 'signup', email: `new${i}@example.com` })),
    ...[1, 2].map((i) => ({ type: 'signup', email: `old${i}@example.com`, occurred_at: daysAgo(35) })),
  ]);
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(15_000);
});

describe('Charts', () => {
  it('opens on the most frequent event of the last 30 days, per day, with its total against the 30 days before', async () => {
    await open(page, '/charts');
    await expect(page.getByLabel('Event', { exact: true }).inputValue()).resolves.toBe('pageview');
    await expect(page.getByLabel('Range').inputValue()).resolves.toBe('30d');
    expect(await table(page)).toEqual({ head: ['Bucket (UTC)', 'pageview'], today: [dayOf(0), '5'] });
    await expect(page.getByRole('list', { name: 'Totals' }).textContent()).resolves.toBe(
      `pageview: 6 total, new against 0 in the 30 days before (${dayOf(59)} to ${dayOf(30)})`,
    );
    expect(await layoutShift(page)).toBeLessThan(0.01);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('charts several events at once, a series and a total each, kept in the URL; one is removed again', async () => {
    await open(page, '/charts');
    await page.getByRole('button', { name: 'Add an event' }).click();
    await page.getByLabel('Event 2').selectOption('signup');
    await page.waitForURL(/[?&]events=pageview%2Csignup/);
    await page.getByRole('columnheader', { name: 'signup' }).waitFor();
    expect(await table(page)).toEqual({ head: ['Bucket (UTC)', 'pageview', 'signup'], today: [dayOf(0), '5', '3'] });
    await expect(page.getByRole('list', { name: 'Totals' }).getByRole('listitem').allTextContents()).resolves.toEqual([
      `pageview: 6 total, new against 0 in the 30 days before (${dayOf(59)} to ${dayOf(30)})`,
      `signup: 3 total, +50% against 2 in the 30 days before (${dayOf(59)} to ${dayOf(30)})`,
    ]);

    await page.getByLabel('Measure').selectOption('people');
    await page.getByText(/^pageview: 0\.13 average per day/).waitFor();
    await page.getByLabel('Measure').selectOption('count');
    await page.getByText(/^pageview: 6 total/).waitFor();

    await page.getByRole('button', { name: 'Remove signup' }).click();
    await page.waitForURL((at) => at.searchParams.get('events') === 'pageview');
    await page.getByRole('columnheader', { name: 'signup' }).waitFor({ state: 'detached' });
  });

  it('the legend names each series and, under the pointer, the bucket and its values; never "Time: --"', async () => {
    await open(page, '/charts?events=pageview,signup');
    const legend = page.locator('.chart-legend');
    await expect(legend.textContent()).resolves.toBe(`${dayOf(29)} to ${dayOf(0)} (UTC)pageviewsignup`);
    const drawing = page.locator('.chart-drawing .u-over');
    const box = (await drawing.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await expect(legend.locator('.chart-legend-at').textContent()).resolves.toBe(dayOf(0));
    await expect(legend.locator('li').allTextContents()).resolves.toEqual(['pageview5', 'signup3']);
    expect(await legend.textContent()).not.toMatch(/Time|--/);
    await screenshot(page, 'charts-events');
  });

  it('nothing moves while a question of several events loads (cumulative layout shift 0); axe finds nothing serious in either theme', async () => {
    await open(page, '/charts?events=pageview,signup&breakdown=source');
    expect(await layoutShift(page)).toBeLessThan(0.01);
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'charts-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('a workspace with no events yet is told so, not shown an empty chart', async () => {
    const empty = await c.t.workspace();
    const other = await c.signIn(empty.secretKey);
    await other.goto(`${c.t.url}/console/charts`);
    await other.getByText('No events in the last 30 days yet: post one, or choose an event to chart.').waitFor();
  });
});
