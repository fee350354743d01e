// The console's consent both ways in Chromium against the real api and worker: the person page shows each
// subscription's consent words and its withdrawal and takes a person off a list with Unsubscribe (withdrawnVia
// console); the Lists page counts subscribed, pending and unsubscribed people and who left how
// (docs/rest.md#coming-off-a-list, docs/graphql.md#lists).
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole({ worker: true });
let ws: CreatedWorkspace;
let page: Page;
let ada: string;

async function post(body: Record<string, unknown>): Promise<Record<string, any>> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect(answer.body).toMatchObject({ ok: true });
  return answer.body;
}

beforeAll(async () => {
  ws = await c.t.workspace();
  const made = await c.t.gql(
    'mutation { letter: createList(input: {address: "letter", name: "The letter"}) { id } ' +
      'confirm: createList(input: {address: "confirm", name: "Confirmed news", doubleOptIn: true}) { id } }',
    {},
    ws.secretKey,
  );
  expect(made.errors).toBeUndefined();
  const consent = { text: 'Send me the monthly letter.', ip: '198.51.100.7' };
  ada = (await post({ type: 'subscribe', email: 'ada@example.com', list: 'letter', consent })).id;
  await post({ type: 'subscribe', email: 'bo@example.com', list: 'letter', consent: 'Yes, the letter.' });
  await post({ type: 'subscribe', email: 'cy@example.com', list: 'confirm', consent: 'Yes, the news.' });
  expect(await post({ type: 'unsubscribe', email: 'bo@example.com', list: 'letter' })).toMatchObject({
    status: 'unsubscribed',
  });
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
});

describe('the person page', () => {
  it('shows the consent words and, after Unsubscribe, the withdrawal beside them', async () => {
    await openPage(page, c.t, `/people/${ada}`);
    const row = page.getByRole('row', { name: /The letter/ });
    await row.getByText('Send me the monthly letter.').waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('subscribed');
    expect(await row.getByRole('cell').nth(6).textContent()).toBe('none');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Unsubscribe from The letter' }).click();
    await row.getByText('in the console').waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('unsubscribed');
    expect(await row.getByText('Send me the monthly letter.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Unsubscribe from The letter' }).count()).toBe(0);
    await screenshot(page, 'person-withdrawn');
  });
});

describe('the Lists page', () => {
  it('counts subscribed, pending and unsubscribed people, and names who left how', async () => {
    await openPage(page, c.t, '/lists');
    const letter = page.getByRole('row', { name: /The letter/ });
    await letter.waitFor();
    const cells = async (row: typeof letter) => (await row.getByRole('cell').allTextContents()).slice(2, 5);
    expect(await cells(letter)).toEqual(['0', '0', '2']);
    expect(await cells(page.getByRole('row', { name: /Confirmed news/ }))).toEqual(['0', '1', '0']);
    await letter.getByText('api 1, console 1').click();
    const leavers = page.getByRole('list', { name: 'Latest to leave The letter' });
    await leavers.getByRole('link', { name: 'bo@example.com' }).waitFor();
    expect(await leavers.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^ada@example\.com console, /),
      expect.stringMatching(/^bo@example\.com api, /),
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'lists-withdrawals');
  });
});

describe('the Automations page', () => {
  it('offers the unsubscribed trigger with its list', async () => {
    await openPage(page, c.t, '/automations');
    await page.getByLabel('Name').fill('Win back');
    await page.getByLabel('Starts when').selectOption('unsubscribed');
    await page.getByLabel('List').selectOption('letter');
    await page.getByRole('button', { name: 'Create automation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Win back' }).waitFor();
    await expect(page.locator('dl.facts').textContent()).resolves.toMatch(/When someone comes off list letter/);
  });
});
