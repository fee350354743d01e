// The Limits section of the console's Settings page (docs/operations.md#limits), in Chromium against the real api:
// each limit's figure and who set it, and how close each key came in the last day, the key by its hint.
import { ADMIN_TOKEN } from './harness';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole();
const SITE = 'https://shop.example.com';

it("shows each limit's figure, the operator's override as such, and how close the key and the visitors came", async () => {
  const ws = await c.t.workspace({ origins: [SITE] });
  const set = await c.t.gql(
    `mutation { setWorkspaceLimit(workspace: "${ws.workspace.slug}", limit: "server_posts", perTenMinutes: 4) { limit } }`,
    {},
    ADMIN_TOKEN,
  );
  expect(set.errors).toBeUndefined();
  for (let i = 0; i < 5; i++)
    await c.t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'pageview', email: `p${i}@example.com` },
    });
  for (let i = 0; i < 3; i++)
    await c.t.request('POST', `/api/in/${ws.publicKey}/event`, {
      body: { type: 'pageview', anon_id: `v${i}` },
      headers: { origin: SITE },
    });

  const page = await c.signIn(ws.secretKey);
  const limits = page.getByRole('region', { name: 'Limits', exact: true });
  const usage = limits.getByRole('table', { name: /How close each key came/ });
  // The peaks are saved every few seconds: reload until they show.
  for (let tries = 0; tries < 20; tries++) {
    await openPage(page, c.t, '/settings');
    await limits.getByRole('table', { name: /Calls allowed per ten minutes/ }).waitFor();
    if ((await usage.count()) > 0 && (await usage.getByRole('row').count()) >= 3) break;
    await page.waitForTimeout(1_000);
  }

  const figures = limits.getByRole('table', { name: /Calls allowed per ten minutes/ });
  expect(await figures.getByRole('row', { name: /server_posts .* 4 The operator/ }).count()).toBe(1);
  expect(await figures.getByRole('row', { name: /website_event .* 240 Default/ }).count()).toBe(1);

  const keyRow = usage.getByRole('row', { name: new RegExp(`server_posts sk_live_…${ws.secretKey.slice(-4)} 4 of 4`) });
  expect(await keyRow.textContent()).toMatch(/100%/);
  expect(await keyRow.getByRole('cell').nth(4).textContent()).toBe('1'); // the fifth post, refused
  const visitors = usage.getByRole('row', { name: /website_event The busiest visitor [123] of 240/ });
  expect(await visitors.count()).toBe(1);
  expect(await limits.getByText(/127\.0\.0\.1|::1/).count()).toBe(0); // no visitor address shown
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'settings-limits');
});
