// The admin console in Chromium against the real api (and, when asked, the worker): one
// browser and one app per test file. Pages are signed in through the real /sign-in form; axe-core
// checks each page; screenshots go to artifacts/console/ (kept by CI as artifacts, never committed).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN_TOKEN, TestApp, useApp } from '../harness';
import { launchBrowser } from './browser';

export const SCREENSHOTS = join(__dirname, '..', '..', 'artifacts', 'console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface ConsoleTest {
  t: TestApp;
  browser: Browser;
  /** A new browser context signed in with this secret key (the key's member), on /console/people. */
  signIn(secretKey: string): Promise<Page>;
  /** A new browser context signed in as the operator (ADMIN_TOKEN). */
  signInAsOperator(): Promise<Page>;
}

export function useConsole(
  options: { worker?: boolean; env?: Record<string, string> | (() => Record<string, string>) } = {},
): ConsoleTest {
  const t = useApp(options);
  const handle = { t } as ConsoleTest;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (process.env.LIFELINE_NO_CONSOLE) throw new Error(process.env.LIFELINE_NO_CONSOLE);
    handle.browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await handle.browser?.close();
  });
  const signInWith = async (label: string, value: string, button: string) => {
    const context = await handle.browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${t.url}/sign-in?next=${encodeURIComponent('/console/people')}`);
    await page.getByLabel(label).fill(value);
    await page.getByRole('button', { name: button, exact: true }).click();
    await page.waitForURL((at) => at.pathname.startsWith('/console'));
    return page;
  };
  handle.signIn = (secretKey) => signInWith('Secret key', secretKey, 'Sign in');
  handle.signInAsOperator = () => signInWith('Operator token', ADMIN_TOKEN, 'Sign in as operator');
  return handle;
}

/** Goes to a console path (like '/people') by the address bar, and waits for the page's heading. */
export async function openPage(page: Page, t: TestApp, path: string): Promise<void> {
  await page.goto(`${t.url}/console${path}`);
  await page.locator('h1').first().waitFor();
}

/** axe-core's serious and critical violations on the page as it is now, as readable lines (none expected). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the console's strict script policy does not stop it.
  await page.evaluate(`${AXE};0`);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(', ')}`);
}

/** A full-page screenshot kept as a test artifact (artifacts/console/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
