// The console's Webhooks and Doors pages in Chromium against the real api and worker: an
// address is created through the page (secret shown once), a failing address's delivery shows each
// attempt, and Retry from the log once the receiver answers 200 makes a new attempt appear; a door is
// connected (address shown once) and disconnected; a member sees the controls disabled with the reason.
// The log as a table (filter, disclosure, Retry of a pending delivery, page height): console-logs.e2e-spec.ts.
// RETRY_UNIT_MS=1 makes a minute one millisecond, so a failing delivery uses its six attempts in about a
// second; a year's failure window keeps that from disabling the address (as webhooks-beyond does).
import { createHmac } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { memberKey } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';
import { githubStar } from './support/provider-events';
import { receiver } from './support/receiver';

const console_ = useConsole({ worker: true, env: { RETRY_UNIT_MS: '1', WEBHOOK_DISABLE_AFTER_DAYS: '365' } });
const { t } = console_;

let ws: CreatedWorkspace;
let owner: Page;
let answering = 500;
let hook: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  hook = await receiver(() => answering);
  ws = await t.workspace();
  owner = await console_.signIn(ws.secretKey);
});
afterAll(() => hook?.close());

/** A time an hour ago as a datetime-local field takes it (the browser's own time zone, as here). */
function anHourAgo(): string {
  const d = new Date(Date.now() - 3600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The log's deliveries: the first row of each (the one with its disclosure button). */
const deliveries = (page: Page) =>
  page
    .getByRole('region', { name: 'Deliveries' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /^Details of / }) });
/** A delivery's attempts, in the details its row opens (opened here when closed). */
async function attemptRows(delivery: Locator): Promise<Locator> {
  const disclose = delivery.getByRole('button', { name: /^Details of / });
  if ((await disclose.getAttribute('aria-expanded')) !== 'true') await disclose.click();
  const details = delivery.page().locator(`[id="${await disclose.getAttribute('aria-controls')}"]`);
  return details.getByRole('row').filter({ has: delivery.page().getByRole('cell') });
}
/** Opens a folded part of an address's page (Edit, Signing secret, Recover and replay, Delete). */
const unfold = (page: Page, title: string) => page.locator('summary', { hasText: title }).click();

describe('Webhooks', () => {
  it("an owner creates an address on the page and its signing secret is shown once, with Copy; a refused address shows the service's sentence", async () => {
    await openPage(owner, t, '/webhooks');
    await owner.getByText('No webhook addresses yet').waitFor();
    const form = owner.getByRole('form', { name: 'Create an address' });
    await form.getByLabel('URL').fill('not an address');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toMatch(/\(invalid_field\)/);

    await form.getByLabel('URL').fill(`${hook.url}/hooks`);
    await expect(
      form
        .getByRole('group', { name: 'Triggers' })
        .getByRole('checkbox', { name: /^event/ })
        .isChecked(),
    ).resolves.toBe(true);
    await form
      .getByRole('group', { name: 'Triggers' })
      .getByRole('checkbox', { name: /^stage_entered/ })
      .check();
    await form.getByLabel('Rate limit (posts per second)').fill('50');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    const shown = form.getByRole('status').filter({ hasText: 'Signing secret' });
    await expect(shown.locator('code').textContent()).resolves.toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Copy' }).waitFor();

    const row = owner.getByRole('row').filter({ has: owner.getByRole('link', { name: `${hook.url}/hooks` }) });
    await row.getByText('no attempts in the last day').waitFor();
    await expect(row.textContent()).resolves.toContain('stage_entered, event');
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'webhooks');
  });

  it("a failing delivery shows as failed with each attempt's status and error; Recover sends it again; once the receiver answers 200, Retry makes a new attempt with status 200", async () => {
    await openPage(owner, t, '/webhooks');
    await owner.getByRole('link', { name: `${hook.url}/hooks` }).click();
    await owner.getByRole('heading', { level: 1, name: `${hook.url}/hooks` }).waitFor();
    await owner.getByRole('button', { name: 'Send a test' }).click();

    const delivery = deliveries(owner).first();
    await delivery.getByText('failed', { exact: true }).waitFor({ timeout: 15_000 });
    const attempts = await attemptRows(delivery);
    await expect(attempts.count()).resolves.toBe(6);
    for (const cells of await attempts.all()) {
      await expect(cells.getByRole('cell').nth(2).textContent()).resolves.toBe('500');
      await expect(cells.getByRole('cell').nth(4).textContent()).resolves.toMatch(/2xx/);
    }

    await unfold(owner, 'Recover and replay');
    await owner.getByLabel('Since').fill(anHourAgo());
    await owner.getByRole('button', { name: 'Recover', exact: true }).click();
    await owner.getByRole('status').filter({ hasText: '1 delivery queued.' }).waitFor();
    await attempts.nth(6).waitFor({ timeout: 15_000 });
    await delivery.getByText('failed', { exact: true }).waitFor();

    answering = 200;
    await delivery.getByRole('button', { name: /^Retry/ }).click();
    await delivery.getByText('succeeded', { exact: true }).waitFor({ timeout: 15_000 });
    const last = attempts.nth(7);
    await expect(last.getByRole('cell').nth(0).textContent()).resolves.toBe('8');
    await expect(last.getByRole('cell').nth(2).textContent()).resolves.toBe('200');
    await expect(delivery.getByRole('button', { name: /^Retry/ }).count()).resolves.toBe(0);
    expect(hook.received.at(-1)?.answered).toBe(200);
  });

  it('Send a test adds a delivery to the log, newest first, and shows what it answered', async () => {
    await expect(deliveries(owner).count()).resolves.toBe(1);
    await owner.getByRole('button', { name: 'Send a test' }).click();
    await deliveries(owner).nth(1).waitFor();
    await deliveries(owner).first().getByText('succeeded', { exact: true }).waitFor({ timeout: 15_000 });
    await expect(deliveries(owner).first().locator('.type').textContent()).resolves.toBe('test');
    await owner
      .locator('.sent-test')
      .getByText(/succeeded attempt 1 answered 200/)
      .waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'webhook');
  });

  it('rotating the secret shows the new one once and says the previous one keeps signing 24 hours', async () => {
    await unfold(owner, 'Signing secret');
    await owner.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = owner.getByRole('status').filter({ hasText: 'New signing secret' });
    await expect(shown.locator('code').textContent()).resolves.toMatch(/^whsec_/);
    await owner.getByText('the previous secret keeps signing beside it for 24 hours').waitFor();
  });

  it('a disabled address shows why and since when, in the list and on its page, and Enable again sends to it again', async () => {
    const gone = await t.make.endpoint(ws.workspace.id, {
      url: `${hook.url}/gone`,
      disabled_reason: 'The receiver answered 410 Gone: it asked for no more deliveries.',
    });
    await openPage(owner, t, '/webhooks');
    const row = owner.getByRole('row').filter({ has: owner.getByRole('link', { name: `${hook.url}/gone` }) });
    await row.getByText('Disabled').waitFor();
    await expect(row.textContent()).resolves.toMatch(/Disabled since .+: The receiver answered 410 Gone/);
    await openPage(owner, t, `/webhooks/${gone.id}`);
    await owner.getByText('it asked for no more deliveries').waitFor();
    await owner.getByRole('button', { name: 'Enable again' }).click();
    await owner.getByText('Enabled', { exact: true }).waitFor();
    await expect(owner.getByRole('button', { name: 'Enable again' }).count()).resolves.toBe(0);
  });
});

describe('Doors', () => {
  it('an owner connects a door (its address shown once), sees the posts it answered, and disconnects it with a second step', async () => {
    await openPage(owner, t, '/doors');
    await owner.getByText('No doors connected yet').waitFor();
    await owner.getByLabel('Kind').selectOption('hosting');
    await owner.getByLabel('Signing secret').fill('gh-door-secret');
    await owner.getByLabel('Post stars as github_star events').check();
    await owner.getByRole('button', { name: 'Connect', exact: true }).click();
    const shown = owner.getByRole('status').filter({ hasText: 'Address of the GitHub door' });
    const address = (await shown.locator('code').textContent())!;
    expect(address).toMatch(new RegExp(`^${t.url}/api/webhooks/hosting/\\w+$`));
    await shown.getByRole('button', { name: 'Copy' }).waitFor();

    const raw = JSON.stringify(githubStar({ login: 'Codertocat', id: 21031067 }));
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'star',
      'x-github-delivery': 'gh-delivery-1',
      'x-hub-signature': `sha1=${createHmac('sha1', 'gh-door-secret').update(raw).digest('hex')}`,
    };
    expect((await fetch(address, { method: 'POST', headers, body: raw })).status).toBe(200);
    await owner.reload();
    const door = owner.getByRole('list', { name: 'Doors' }).getByRole('listitem');
    await door.getByRole('cell', { name: 'gh-delivery-1' }).waitFor();
    await door.getByText('posted as github_star').waitFor();
    expect(await seriousViolations(owner)).toEqual([]);
    await screenshot(owner, 'doors');

    await door.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await door.getByRole('button', { name: 'Disconnect for good' }).click();
    await owner.getByText('No doors connected yet').waitFor();
    expect((await fetch(address, { method: 'POST', headers, body: raw })).status).toBe(404);
  });
});

describe('a member', () => {
  it('sees Create, Retry and Connect disabled with the reason', async () => {
    const endpoints = await t.gql('{ webhookEndpoints { id } }', {}, ws.secretKey);
    const [endpoint] = endpoints.data.webhookEndpoints;
    // A failed delivery in the member's view: made by the owner's factory, as attempts would leave it.
    await t.make.delivery(ws.workspace.id, endpoint.id, { type: 'test', state: 'failed', attempts: 6 });
    const member = await console_.signIn((await memberKey(t, ws, 'member@example.com')).secretKey);
    const reason = /Only owners and admins can change this/;

    await openPage(member, t, '/webhooks');
    const create = member.getByRole('button', { name: 'Create', exact: true });
    await expect(create.isDisabled()).resolves.toBe(true);
    await expect(
      member.locator(`[id="${await create.getAttribute('aria-describedby')}"]`).textContent(),
    ).resolves.toMatch(reason);

    await openPage(member, t, `/webhooks/${endpoint.id}`);
    // The member reads the log (read-only); a refusal of the read would show here instead.
    await member.getByRole('region', { name: 'Deliveries' }).or(member.getByRole('alert')).first().waitFor();
    await expect(member.getByRole('alert').allTextContents()).resolves.toEqual([]);
    const retry = member.getByRole('button', { name: /^Retry dlv_/ });
    await expect(retry.isDisabled()).resolves.toBe(true);
    await expect(
      member.locator(`[id="${await retry.getAttribute('aria-describedby')}"]`).textContent(),
    ).resolves.toMatch(reason);
    await expect(member.getByRole('button', { name: 'Send a test' }).isDisabled()).resolves.toBe(true);

    await openPage(member, t, '/doors');
    await expect(member.getByRole('button', { name: 'Connect', exact: true }).isDisabled()).resolves.toBe(true);
  });
});
