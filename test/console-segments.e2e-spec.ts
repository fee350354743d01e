// The console's Segments in Chromium against the real api and worker (docs/graphql.md#segments): a segment
// made through the form's rows, its JSON beside them (either one editing the other), its live count once
// filled, the API's refusal beside the JSON, a person's chip linking to it, and People filtered by it.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { memberKey } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole({ worker: true });
let ws: CreatedWorkspace;
let page: Page;

async function post(body: Record<string, unknown>): Promise<void> {
  const answer = await c.t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect(answer.body).toMatchObject({ ok: true });
}

const json = (on: Page) => on.getByLabel('Definition (JSON)');
const form = (on: Page) => on.getByRole('region', { name: 'New segment' });

beforeAll(async () => {
  ws = await c.t.workspace();
  await post({ type: 'signup', email: 'ada@example.com' });
  await post({ type: 'purchase', email: 'ada@example.com', value: 49 });
  await post({ type: 'pageview', email: 'lurker@example.com' });
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(15_000);
});

describe('the Segments page', () => {
  it("creates a segment through the form's rows, its JSON written beside them, and shows its live count once filled", async () => {
    await openPage(page, c.t, '/segments');
    await form(page).getByLabel('Name').fill('Buyers');
    const first = form(page).getByRole('group', { name: 'Condition 1' });
    await first.getByRole('checkbox', { name: 'Purchaser', exact: true }).check();
    expect(JSON.parse(await json(page).inputValue())).toEqual({ all: [{ stage: 'purchaser' }] });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'segments-new');

    await form(page).getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();
    await page
      .getByRole('status', { name: 'Live count' })
      .filter({ hasText: /^1 person$/ })
      .waitFor();
    await page.getByText('Filled', { exact: true }).waitFor();
    await page
      .getByRole('table', { name: 'Members of Buyers' })
      .getByRole('link', { name: 'ada@example.com' })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'segment');

    await openPage(page, c.t, '/segments');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Buyers' }) });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('1');
  });

  it('redraws the form from typed JSON, says why it cannot show nesting, and shows a syntax error beside the JSON', async () => {
    await openPage(page, c.t, '/segments');
    await json(page).fill('{"any": [{"engaged": true}, {"not": {"list": "news"}}]}');
    expect(await form(page).getByLabel('People who match').inputValue()).toBe('any');
    const second = form(page).getByRole('group', { name: 'Condition 2' });
    expect(await second.getByLabel('Kind').inputValue()).toBe('list');
    expect(await second.getByRole('checkbox', { name: 'Not (people who do not match)' }).isChecked()).toBe(true);

    await json(page).fill('{"all": [{"any": [{"engaged": true}]}]}');
    await form(page)
      .getByText(/condition 1 .* is nested/)
      .waitFor();
    await json(page).fill('{"all": [');
    await form(page).getByRole('alert').filter({ hasText: 'The JSON does not parse' }).waitFor();
    expect(await form(page).getByRole('button', { name: 'Create segment' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows the API's refusal of a definition beside the JSON", async () => {
    await openPage(page, c.t, '/segments');
    await form(page).getByLabel('Name').fill('Nobody yet');
    await json(page).fill('{"all": [{"event": "never_seen_here"}]}');
    await form(page).getByRole('button', { name: 'Create segment' }).click();
    const alert = form(page).locator('.json').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/never_seen_here/);

    await form(page).getByLabel('Name').fill('Buyers');
    await json(page).fill('{"all": [{"engaged": true}]}');
    await form(page).getByRole('button', { name: 'Create segment' }).click();
    // The refusal of a taken name sits right below the Name field.
    const taken = form(page).locator('.field:has(label:text-is("Name")) + [role=alert]');
    await taken.filter({ hasText: 'already exists' }).waitFor();
    expect(await alert.count()).toBe(0);
  });

  it("links each segment a person is in from the person's page, and filters People by it", async () => {
    await openPage(page, c.t, `/people?q=${encodeURIComponent('ada@example.com')}`);
    await page.getByRole('link', { name: 'ada@example.com', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'ada@example.com' }).waitFor();
    const chips = page.getByRole('list', { name: 'Segments the person is in' });
    await chips.getByRole('link', { name: 'Buyers', exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await chips.getByRole('link', { name: 'Buyers', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();

    await openPage(page, c.t, '/people');
    await page.getByLabel('Segment').selectOption({ label: 'Buyers' });
    await page.waitForURL(/[?&]segment=/);
    await page
      .getByRole('status')
      .filter({ hasText: /^1 person$/ })
      .waitFor();
    expect(await page.getByRole('link', { name: 'lurker@example.com' }).count()).toBe(0);
  });

  it("changes a segment's name and definition on its page, its members following, and deletes it once confirmed", async () => {
    await openPage(page, c.t, '/segments');
    await form(page).getByLabel('Name').fill('Short-lived');
    await json(page).fill('{"all": [{"engaged": false}]}');
    await form(page).getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Short-lived' }).waitFor();
    await page
      .getByRole('table', { name: 'Members of Short-lived' })
      .getByRole('link', { name: 'lurker@example.com' })
      .waitFor();

    const definition = page.getByRole('region', { name: 'Definition' });
    await definition.getByLabel('Name').fill('Leaving soon');
    await definition.getByRole('group', { name: 'Condition 1' }).getByLabel('Engaged').selectOption('true');
    expect(JSON.parse(await json(page).inputValue())).toEqual({ all: [{ engaged: true }] });
    await definition.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Leaving soon' }).waitFor();
    await page
      .getByRole('table', { name: 'Members of Leaving soon' })
      .getByRole('link', { name: 'ada@example.com' })
      .waitFor();

    await page.getByRole('button', { name: 'Delete segment' }).click();
    await page.getByRole('button', { name: 'Yes, delete segment' }).click();
    await page.waitForURL((at) => at.pathname === '/console/segments');
    await page.getByRole('link', { name: 'Buyers' }).waitFor();
    expect(await page.getByRole('link', { name: 'Leaving soon' }).count()).toBe(0);
  });

  it('shows a member the segments read-only: the forms and Delete disabled with the reason', async () => {
    const member = await memberKey(c.t, ws, 'reader@example.com');
    const reader = await c.signIn(member.secretKey);
    await openPage(reader, c.t, '/segments');
    await reader.getByRole('link', { name: 'Buyers' }).waitFor();
    expect(await form(reader).getByRole('button', { name: 'Create segment' }).isDisabled()).toBe(true);
    expect(await form(reader).getByLabel('Name').isDisabled()).toBe(true);
    await form(reader).getByText('Only owners and admins can change this').waitFor();
    expect(await seriousViolations(reader)).toEqual([]);
    await reader.getByRole('link', { name: 'Buyers' }).click();
    await reader.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();
    expect(await reader.getByRole('button', { name: 'Delete segment' }).isDisabled()).toBe(true);
    expect(await reader.getByRole('button', { name: 'Save segment' }).isDisabled()).toBe(true);
  });
});
