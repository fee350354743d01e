// The console's double opt-in in Chromium against the real api: the Lists page makes a list that asks new
// subscribers to confirm by email, and each list's row turns it on and off through updateList, the box showing
// List.doubleOptIn as GraphQL reads it (docs/graphql.md#lists).
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole();
let ws: CreatedWorkspace;
let page: Page;

const LABEL = 'Ask new subscribers to confirm by email (double opt-in)';

/** Each list's address and doubleOptIn as GraphQL answers them now. */
async function doubleOptIns(): Promise<Record<string, boolean>> {
  const answer = await c.t.gql('{ lists { address doubleOptIn } }', {}, ws.secretKey);
  expect(answer.errors).toBeUndefined();
  const lists = answer.data.lists as Array<{ address: string; doubleOptIn: boolean }>;
  return Object.fromEntries(lists.map((l) => [l.address, l.doubleOptIn]));
}

beforeAll(async () => {
  ws = await c.t.workspace();
  const made = await c.t.gql(
    'mutation { createList(input: {address: "letter", name: "The letter"}) { id } }',
    {},
    ws.secretKey,
  );
  expect(made.errors).toBeUndefined();
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
});

describe('the Lists page', () => {
  it("ticks a list's double opt-in, which GraphQL then reads as true, and unticks it back to false", async () => {
    await openPage(page, c.t, '/lists');
    const box = page.getByRole('checkbox', { name: `The letter: ${LABEL}` });
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);

    await box.check();
    await eventually(async () => (await doubleOptIns()).letter === true);
    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await screenshot(page, 'lists-double-opt-in');

    await box.uncheck();
    await eventually(async () => (await doubleOptIns()).letter === false);
    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
  });

  it('creates a list with double opt-in ticked, shown ticked in its row', async () => {
    await openPage(page, c.t, '/lists');
    const form = page.getByRole('region', { name: 'New list' });
    await form.getByLabel('Address').fill('confirmed');
    await form.getByLabel('Name').fill('Confirmed news');
    await form.getByRole('checkbox', { name: LABEL, exact: true }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create list' }).click();
    const box = page.getByRole('checkbox', { name: `Confirmed news: ${LABEL}` });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: LABEL, exact: true }).isChecked()).toBe(false);
    expect(await doubleOptIns()).toEqual({ letter: false, confirmed: true });
  });
});
