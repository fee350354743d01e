// The console's funnel and retention views in Chromium against the real api
// (docs/graphql.md#funnels-and-retention): steps and events chosen as the chart page offers them, answered
// as a picture and a table of the same numbers, for everyone or a segment's members.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole({ worker: true });
let ws: CreatedWorkspace;
let page: Page;

async function post(body: Record<string, unknown>): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect(answer.body).toMatchObject({ ok: true });
}

/** The table's rows, as the text of their cells. */
async function rows(on: Page): Promise<string[][]> {
  const table = on.getByRole('region', { name: 'The numbers' }).getByRole('table');
  await table.waitFor();
  return table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((cell) => cell.textContent ?? '')),
    );
}

const DAY_MS = 86_400_000;
/** Noon (UTC) of the day so many days ago, and that day's date. */
const daysAgo = (days: number) => new Date(Date.parse(`${dayOf(days)}T12:00:00.000Z`)).toISOString();
const dayOf = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

beforeAll(async () => {
  ws = await c.t.workspace();
  // Two sign up two days ago, one of them is back the day after; two more sign up today.
  for (const email of ['a@example.com', 'b@example.com'])
    await post({ type: 'signup', email, occurred_at: daysAgo(2) });
  await post({ type: 'pageview', email: 'a@example.com', occurred_at: daysAgo(1) });
  for (const email of ['c@example.com', 'd@example.com']) await post({ type: 'signup', email });
  await post({ type: 'purchase', email: 'a@example.com', value: 10 });
  await post({ type: 'purchase', email: 'b@example.com', value: 20 });
  const made = await c.t.gql(
    'mutation { createSegment(input: {name: "Buyers", definition: {stage: "purchaser"}}) { id } }',
    {},
    ws.secretKey,
  );
  expect(made.errors).toBeUndefined();
  // The worker fills it: a and b bought.
  await eventually(async () => {
    const answer = await c.t.gql('{ segments { count filling } }', {}, ws.secretKey);
    const [segment] = answer.data.segments as Array<{ count: number; filling: boolean }>;
    return !segment.filling && segment.count === 2;
  }, 20_000);
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(15_000);
});

describe('the funnel and retention views', () => {
  it('asks a funnel of two steps from the events, as bars and a table of conversion of step 1, for everyone and a segment', async () => {
    await openPage(page, c.t, '/charts');
    await page.getByRole('navigation', { name: 'Chart views' }).getByRole('link', { name: 'Funnel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Funnel' }).waitFor();
    await page.getByLabel('Step 1').selectOption('signup');
    await page.getByLabel('Step 2').selectOption('purchase');
    await page.waitForURL(/steps=signup%2Cpurchase/);
    expect(await rows(page)).toEqual([
      ['1', 'signup', '4', '100%'],
      ['2', 'purchase', '2', '50%'],
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'funnel');

    await page.getByLabel('Segment').selectOption({ label: 'Buyers' });
    await page.waitForURL(/[?&]segment=seg_/);
    await page.getByRole('cell', { name: '100%' }).nth(1).waitFor();
    expect(await rows(page)).toEqual([
      ['1', 'signup', '2', '100%'],
      ['2', 'purchase', '2', '100%'],
    ]);
  });

  it('asks retention of a start and a back event, answered as a shaded grid and a table of shares', async () => {
    await openPage(page, c.t, '/charts/retention?start=signup&back=pageview&interval=day&periods=3');
    expect(await rows(page)).toEqual([
      [dayOf(2), '2', '100%', '50%', '0%'],
      [dayOf(1), '0', '0%', '0%', ''],
      [dayOf(0), '2', '100%', '', ''],
    ]);
    expect(await page.locator('.retention-grid span').count()).toBe(5 * 4);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'retention');
  });
});
