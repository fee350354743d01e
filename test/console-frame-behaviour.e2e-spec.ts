// The console's frame as a person meets it, in Chromium against the real api (docs/console.md#the-frame):
// signing in at /sign-in ends in the console with no "signing in" line on the way, a failed request keeps
// the menu and offers Retry, a form's refusal goes once the form is changed, a door's address is shown
// again when asked and doors are named by the system they stand for; the files come compressed and cached.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { memberKey } from './harness';
import { openPage, seriousViolations, useConsole } from './support/console';

const c = useConsole();
let ws: CreatedWorkspace;
let owner: Page;

beforeAll(async () => {
  ws = await c.t.workspace();
  owner = await c.signIn(ws.secretKey);
});

/** Every text the page showed while loading, kept by a watcher the page starts before any script. */
async function watchTexts(page: Page): Promise<() => Promise<string>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenTexts: string[] }).seenTexts = seen;
    new MutationObserver(() => seen.push(document.body?.innerText ?? '')).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts.join('\n'));
}

describe('signing in', () => {
  it('at /sign-in with nothing asked for ends in the console, and /sign-in signed in sends there again', async () => {
    const context = await c.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${c.t.url}/sign-in`);
    await page.getByLabel('Secret key').fill(ws.secretKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((at) => at.pathname.startsWith('/console/'));
    await page.locator('main h1').first().waitFor();
    expect(await page.getByRole('link', { name: /GraphQL explorer/ }).count()).toBe(0);
    await page.goto(`${c.t.url}/sign-in`);
    await page.waitForURL((at) => at.pathname.startsWith('/console/'));
    await context.close();
  });

  it('a page load says nothing of signing in: the frame is there at once, who is signed in once known', async () => {
    const context = await c.browser.newContext({ storageState: await owner.context().storageState() });
    const page = await context.newPage();
    const texts = await watchTexts(page);
    await openPage(page, c.t, '/lists');
    await page.getByRole('heading', { level: 1, name: 'Lists' }).waitFor();
    expect(await texts()).not.toMatch(/Signing you in/);
    expect(await page.locator('header.top').textContent()).toContain('owner@example.com');
    await context.close();
  });
});

describe('a request that fails', () => {
  it('keeps the menu, says what to do and offers Retry, which asks again once the service answers', async () => {
    const context = await c.browser.newContext({ storageState: await owner.context().storageState() });
    const page = await context.newPage();
    await openPage(page, c.t, '/people');
    // The network drops every GraphQL request from here on: the next page's read fails.
    await page.route('**/graphql', (route) => route.abort('connectionrefused'));
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Lists', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'could not be reached' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(
      /check your connection and try again.*Or choose another page from the menu/,
    );
    expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link').count()).toBeGreaterThan(5);
    expect(await seriousViolations(page)).toEqual([]);
    await page.unroute('**/graphql');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('No lists yet', { exact: false }).or(page.getByRole('table')).first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('at the very first request (who is signed in) still shows the menu and Retry', async () => {
    const context = await c.browser.newContext({ storageState: await owner.context().storageState() });
    const page = await context.newPage();
    await page.route('**/graphql', (route) => route.abort('connectionrefused'));
    await page.goto(`${c.t.url}/console/people`);
    const alert = page.getByRole('alert').filter({ hasText: 'could not be reached' });
    await alert.waitFor();
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'People', exact: true })
      .waitFor();
    await page.unroute('**/graphql');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    await context.close();
  });
});

describe('a form refused', () => {
  it("shows the service's sentence until the form is changed, and again at the next refusal", async () => {
    await openPage(owner, c.t, '/webhooks');
    const form = owner.getByRole('form', { name: 'Create an address' });
    await form.getByLabel('URL').fill('https://127.0.0.1:9/hook');
    for (const box of await form.getByRole('checkbox').all()) await box.uncheck();
    await form.getByRole('button', { name: 'Create' }).click();
    const alert = form.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/Choose one or more triggers/);
    await form.getByRole('checkbox').first().check();
    await alert.waitFor({ state: 'hidden' });
    await form.getByRole('checkbox').first().uncheck();
    expect(await alert.isVisible()).toBe(false);
    await form.getByRole('button', { name: 'Create' }).click();
    await owner.getByRole('alert').filter({ hasText: 'Choose one or more triggers' }).waitFor();
  });
});

describe('doors', () => {
  it('are named by the system they stand for, never by the words of their paths, and show their address again when asked', async () => {
    await openPage(owner, c.t, '/doors');
    await owner.getByLabel('Kind').selectOption('payment');
    await owner.getByLabel('Signing secret').fill('whsec_again');
    await owner.getByRole('button', { name: 'Connect', exact: true }).click();
    const first = await owner
      .getByRole('status')
      .filter({ hasText: 'Address of the Stripe door' })
      .locator('code')
      .textContent();
    expect(first).toMatch(new RegExp(`^${c.t.url}/api/webhooks/payment/\\w+$`));
    await owner.reload();
    const door = owner.getByRole('list', { name: 'Doors' }).getByRole('listitem').first();
    await door.getByRole('heading', { name: 'Stripe' }).waitFor();
    const words = (await owner.locator('main').innerText()) + (await owner.getByLabel('Kind').innerText());
    expect(words).not.toMatch(/\b(auth_a|auth_b|hosting)\b/);
    await door.getByRole('button', { name: 'Show address' }).click();
    const again = await door
      .getByRole('status')
      .filter({ hasText: 'Address of the Stripe door' })
      .locator('code')
      .textContent();
    expect(again).toBe(first);
    expect(await seriousViolations(owner)).toEqual([]);
  });

  it("a member cannot have a door's address shown: the button is disabled with the reason", async () => {
    const member = await c.signIn((await memberKey(c.t, ws, 'reader@example.com')).secretKey);
    await openPage(member, c.t, '/doors');
    const show = member.getByRole('button', { name: 'Show address' }).first();
    expect(await show.isDisabled()).toBe(true);
    const asked = await c.t.gql(
      'query($id: ID!) { doorAddress(id: $id) }',
      { id: 'door_x' },
      (await memberKey(c.t, ws, 'reader2@example.com')).secretKey,
    );
    expect(asked.errors![0].extensions.code).toBe('forbidden');
  });
});

describe('doorAddress', () => {
  it('answers the address connectDoor answered; an unknown id is not_found, a door whose token was random a conflict naming the fix', async () => {
    const connected = await c.t.gql(
      `mutation { connectDoor(input: { kind: "auth_a", secret: "whsec_${Buffer.from('lifeline-door-address').toString('base64')}" }) { address door { id } } }`,
      {},
      ws.secretKey,
    );
    expect(connected.errors).toBeUndefined();
    const { address, door } = connected.data.connectDoor;
    const again = await c.t.gql('query($id: ID!) { doorAddress(id: $id) }', { id: door.id }, ws.secretKey);
    expect(again.data.doorAddress).toBe(address);
    const other = await c.t.workspace();
    const elsewhere = await c.t.gql('query($id: ID!) { doorAddress(id: $id) }', { id: door.id }, other.secretKey);
    expect(elsewhere.errors![0].extensions.code).toBe('not_found');
    await c.t.db.query(`UPDATE door_connections SET token_hash = md5(random()::text) WHERE id = $1`, [door.id]);
    const old = await c.t.gql('query($id: ID!) { doorAddress(id: $id) }', { id: door.id }, ws.secretKey);
    expect(old.errors![0].extensions.code).toBe('conflict');
    expect(old.errors![0].message).toMatch(/connect a new one/);
  });
});

describe('the files', () => {
  it('come compressed (brotli, else gzip), hashed assets cached for a year, the page itself never cached', async () => {
    const html = await fetch(`${c.t.url}/console/people`);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const assets = [...(await html.text()).matchAll(/"(\/console\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
      ]) {
        const answer = await fetch(`${c.t.url}${asset}`, { headers: { 'accept-encoding': accept } });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-encoding')).toBe(encoding);
        expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(answer.headers.get('vary')).toBe('Accept-Encoding');
        await answer.arrayBuffer();
      }
    }
  });
});
