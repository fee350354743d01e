// The admin console at /console, as a browser meets it: built static files served by the api,
// sign-in first, one URL per page with back and forward, keyboard navigation, and a first page light
// enough to load fast (its scripts' gzipped size; bench/RESULTS.md has the time to interactive).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_NAVIGATION } from './support/console-pages';
import { openPage, screenshot, seriousViolations, useConsole } from './support/console';

const c = useConsole();

describe('the console shell', () => {
  it('a browser with no session is sent to sign in, then comes back to the page it asked for', async () => {
    const ws = await c.t.workspace();
    const context = await c.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${c.t.url}/console/webhooks?x=1`);
    await page.waitForURL((at) => at.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/console/webhooks?x=1');
    await page.getByLabel('Secret key').fill(ws.secretKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((at) => at.pathname === '/console/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await context.close();
  });

  it('names every page in the navigation; each has its own URL, and back and forward work', async () => {
    const ws = await c.t.workspace();
    const page = await c.signIn(ws.secretKey);
    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const [path, name] of CONSOLE_NAVIGATION) {
      await nav.getByRole('link', { name, exact: true }).click();
      await page.waitForURL((at) => at.pathname === `/console${path}`);
      await page.locator('h1').first().waitFor();
      expect(await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    }
    await page.goBack();
    await page.waitForURL((at) => at.pathname === `/console${CONSOLE_NAVIGATION.at(-2)![0]}`);
    await page.goForward();
    await page.waitForURL((at) => at.pathname === `/console${CONSOLE_NAVIGATION.at(-1)![0]}`);
    await openPage(page, c.t, '/no-such-page');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
  });

  it('works by keyboard: the skip link and the navigation are reached with Tab and opened with Enter', async () => {
    const ws = await c.t.workspace();
    const page = await c.signIn(ws.secretKey);
    await openPage(page, c.t, '/people');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the page');
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Charts') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((at) => at.pathname === '/console/charts');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shell');
  });

  it('a session that ends sends the next request to sign in', async () => {
    const ws = await c.t.workspace();
    const page = await c.signIn(ws.secretKey);
    await openPage(page, c.t, '/people');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((at) => at.pathname === '/sign-in');
    await page.goto(`${c.t.url}/console/lists`);
    await page.waitForURL((at) => at.pathname === '/sign-in' && at.searchParams.get('next') === '/console/lists');
  });
});

describe('the console build', () => {
  it("keeps the first page's scripts under 250 KB gzipped, React's production build (hashed names, so they cache for a year)", () => {
    const dir = join(__dirname, '..', 'dist', 'console');
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/-[A-Za-z0-9_-]{8}\.js$/);
    const gzipped = scripts.reduce((sum, script) => sum + gzipSync(readFileSync(join(dir, script))).length, 0);
    expect(gzipped).toBeLessThan(250 * 1024);
    // React's production build, whatever NODE_ENV the build ran under (jest sets test).
    for (const script of scripts)
      expect(readFileSync(join(dir, script), 'utf8')).not.toContain('registerInternalModuleStart');
  });
});
