// The console's Settings page (/console/settings) and the operator's Workspaces page, in
// Chromium against the real api: a key created and shown once, then revoked; allowed origins saved;
// the heartbeat showing the posts this test made; a member seeing every change disabled with the reason.
import type { Locator, Page } from 'playwright-core';
import { CreatedWorkspace } from '@app/workspaces';
import { memberKey } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole();
const SITE = 'https://shop.example.com';
const READ_ONLY = 'Only owners and admins can change this; you are a member (read-only).';

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const postEvent = (key: string, body: unknown) => c.t.request('POST', '/api/v1/events', { key, body });
const postFromSite = (ws: CreatedWorkspace, body: unknown) =>
  c.t.request('POST', `/api/in/${ws.publicKey}/event`, { body, headers: { origin: SITE } });

/** The text of the element a control's aria-describedby names: the reason it is disabled. */
const reasonOf = (control: Locator) =>
  control.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');

/** A settings change posted by the page's own session, as a script on it could: the refusal's code. */
const changeFromThePage = (page: Page) =>
  page.evaluate(async () => {
    const body = JSON.stringify({ query: 'mutation { updateWorkspaceSettings(input: {trialStage: true}) { id } }' });
    const answer = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return (await answer.json()).errors?.[0]?.extensions?.code as string | undefined;
  });

/** Settings as the key's member sees it (a new sign-in), or on a page already signed in. */
async function openSettings(who: string | Page, search = ''): Promise<Page> {
  const page = typeof who === 'string' ? await c.signIn(who) : who;
  await openPage(page, c.t, `/settings${search}`);
  await button(page, 'Save').waitFor();
  return page;
}

describe('Settings', () => {
  let ws: CreatedWorkspace;
  let owner: Page;
  beforeAll(async () => {
    ws = await c.t.workspace({ origins: [SITE] });
    owner = await c.signIn(ws.secretKey);
  });

  it('Create key shows the new key once with Copy; after reloading only its hint shows; Revoke (confirmed) stops it', async () => {
    const page = await openSettings(owner);
    const keys = section(page, 'Keys');
    expect(await keys.getByLabel('Key for member').inputValue()).toBe('owner@example.com');
    await button(keys, 'Create key').click();
    const secret = (await keys.locator('code.secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk_live_\w{32}$/);
    await button(keys, 'Copy').waitFor();
    expect((await postEvent(secret, { type: 'pageview', email: 'a@example.com' })).status).toBe(200);

    await page.reload();
    const row = keys.getByRole('row', { name: new RegExp(`sk_live_…${secret.slice(-4)}`) });
    await row.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);

    await button(row, 'Revoke').click();
    await button(row, 'Yes, revoke').click();
    await row.getByText('active').waitFor({ state: 'detached' });
    expect(await button(row, 'Revoke').count()).toBe(0);
    expect((await postEvent(secret, { type: 'pageview', email: 'a@example.com' })).status).toBe(401);
  });

  it('allowed origins are saved as the service keeps them; a bad one is refused with its sentence (role alert)', async () => {
    const page = await openSettings(owner);
    const origins = page.getByLabel('Allowed origins', { exact: true });
    await origins.fill(`${SITE}\nhttps://*.blog.example.com`);
    await button(page, 'Save').click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.reload();
    await button(page, 'Save').waitFor();
    expect(await origins.inputValue()).toBe(`${SITE}\nhttps://*.blog.example.com`);
    expect((await c.t.gql('{ workspace { allowedOrigins } }', {}, ws.secretKey)).data.workspace.allowedOrigins).toEqual(
      [SITE, 'https://*.blog.example.com'],
    );

    await origins.fill('not an origin');
    await button(page, 'Save').click();
    expect(await page.getByRole('alert').textContent()).toContain('"not an origin" is not an origin');
  });

  it('a member sees Create key, Save and every member control disabled with the reason, and the service refuses a change', async () => {
    const reader = await memberKey(c.t, ws, 'reader@example.com');
    const page = await openSettings(reader.secretKey);
    await section(page, 'Members')
      .getByRole('row', { name: /reader@example\.com/ })
      .waitFor();
    for (const control of [
      button(page, 'Create key'),
      button(page, 'Save'),
      button(page, 'Add member'),
      button(page, 'Remove').first(),
      button(page, 'Change role').first(),
    ]) {
      expect(await control.isDisabled()).toBe(true);
      expect(await reasonOf(control)).toBe(READ_ONLY);
    }
    expect(await page.getByLabel('Allowed origins', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Role of reader@example.com').isDisabled()).toBe(true);
    // Nothing on the page that changes the workspace is left enabled: only the heartbeat's own view controls.
    await section(page, 'Heartbeat')
      .getByText(/in the last week/)
      .first()
      .waitFor();
    const enabled = await page
      .locator('main')
      .locator('button:enabled, textarea:enabled, select:enabled, input:enabled:not([type=radio])')
      .evaluateAll((els) => els.map((el) => el.textContent));
    expect(enabled).toEqual(['Refresh']);
    expect(await changeFromThePage(page)).toBe('forbidden');
    await screenshot(page, 'settings-member');
  });
});

describe('Heartbeat', () => {
  it('the Heartbeat section shows the posts made from servers and from the website by action, answer and origin; none, it says so', async () => {
    const fresh = await c.t.workspace({ origins: [SITE] });
    const page = await openSettings(fresh.secretKey, '?range=day');
    const heartbeat = section(page, 'Heartbeat');
    await heartbeat.getByText('No posts from the website or servers in the last day.').waitFor();

    expect((await postEvent(fresh.secretKey, { type: 'pageview', email: 'h@example.com' })).status).toBe(200);
    expect((await postEvent(fresh.secretKey, { type: 'signup', email: 'h@example.com' })).status).toBe(200);
    await postEvent(fresh.secretKey, { type: 'signup' });
    expect((await postFromSite(fresh, { type: 'pageview', anon_id: 'h1' })).status).toBe(200);
    await postFromSite(fresh, { type: 'custom_thing', anon_id: 'h1' });
    await button(heartbeat, 'Refresh').click();
    const table = heartbeat.getByRole('table', { name: /newest first/ });
    await table.waitFor();
    const cells = await table.locator('tbody tr').evaluateAll((rows) =>
      rows.map((r) =>
        Array.from((r as HTMLTableRowElement).cells)
          .slice(1)
          .map((cell) => cell.textContent ?? ''),
      ),
    );
    const counts: Record<string, number> = {};
    for (const [action, answer, origin, count] of cells)
      counts[`${action} ${answer} ${origin}`] = (counts[`${action} ${answer} ${origin}`] ?? 0) + Number(count);
    expect(counts).toEqual({
      'event recorded server': 2,
      'event no_identity server': 1,
      [`event recorded ${SITE}`]: 1,
      [`event unknown_event ${SITE}`]: 1,
    });
    expect(await heartbeat.getByText('5 posts in the last day').count()).toBe(1);
    expect(await heartbeat.locator('.chart canvas').count()).toBeGreaterThan(0);

    await heartbeat.getByLabel('Last hour').check();
    await page.waitForURL((at) => at.searchParams.get('range') === 'hour');
    await heartbeat.getByText('5 posts in the last hour').waitFor();
    await heartbeat.getByLabel('Last week').check();
    await page.waitForURL((at) => !at.searchParams.has('range'));
    await heartbeat.getByText('5 posts in the last week').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings');
  });
});

describe('Workspaces (the operator)', () => {
  it('lists every workspace and creates one, its secret key shown once beside its public key', async () => {
    const existing = await c.t.workspace();
    const page = await c.signInAsOperator();
    await openPage(page, c.t, '/workspaces');
    const all = section(page, 'All workspaces');
    await all.getByRole('row', { name: new RegExp(existing.workspace.slug) }).waitFor();

    await page.getByLabel('Slug', { exact: true }).fill('acme-console');
    await page.getByLabel('Owner email', { exact: true }).fill('boss@acme.test');
    await page.getByLabel('Name', { exact: true }).fill('Acme Console');
    await page.getByLabel('Allowed origins', { exact: true }).fill('https://acme.test');
    await page.getByLabel('Web app', { exact: true }).check();
    await button(page, 'Create workspace').click();
    const secret = (await page.locator('code.secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk_live_\w{32}$/);
    await all.getByRole('row', { name: /Acme Console\s*acme-console\s*web/ }).waitFor();
    const viewer = await c.t.gql('{ viewer { role workspace { slug name } } }', {}, secret);
    expect(viewer.data.viewer).toEqual({ role: 'owner', workspace: { slug: 'acme-console', name: 'Acme Console' } });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'workspaces');

    await page.reload();
    await all.getByRole('row', { name: /acme-console/ }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
  });
});
