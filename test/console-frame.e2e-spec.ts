// The console's frame on every page, in Chromium against the real api (docs/console.md#the-frame): a
// phone's 390 px without horizontal scrolling, dark mode following the system, no serious accessibility
// violation in either theme on a phone or a wide screen, and a focus ring of 3:1 or more.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { everyPage, PAGE_NAMES, PageName } from './support/console-every-page';
import { seriousViolations, useConsole } from './support/console';
import { contrast, settled } from './support/console-frame';

const c = useConsole();
let ws: CreatedWorkspace;
let paths: Record<PageName, string>;

beforeAll(async () => {
  ws = await c.t.workspace();
  paths = await everyPage(c.t, ws);
});

async function visit(page: Page, name: PageName): Promise<void> {
  await page.goto(`${c.t.url}/console${paths[name]}`);
  await settled(page);
}

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  let phone: Page;
  let wide: Page;
  beforeAll(async () => {
    phone = await c.signIn(ws.secretKey);
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.emulateMedia({ colorScheme: theme });
    wide = await c.signIn(ws.secretKey);
    await wide.emulateMedia({ colorScheme: theme });
  });

  it.each(PAGE_NAMES)('%s: 390 px wide at 390 px (no horizontal scrolling), nothing serious for axe', async (name) => {
    await visit(phone, name);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(phone)).toEqual([]);
  });

  it.each(PAGE_NAMES)('%s on a wide screen: nothing serious for axe', async (name) => {
    await visit(wide, name);
    expect(await seriousViolations(wide)).toEqual([]);
  });

  it('on a phone the menu is folded behind Menu, opens with it, and folds again once a page is chosen', async () => {
    await visit(phone, 'People');
    const menu = phone.getByRole('button', { name: 'Menu' });
    const links = phone.getByRole('navigation', { name: 'Console' }).getByRole('link');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await links.first().isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await links.filter({ hasText: 'Lists' }).click();
    await phone.getByRole('heading', { level: 1, name: 'Lists' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('on a wide screen the menu is a column beside the page, with no Menu button', async () => {
    await visit(wide, 'People');
    expect(await wide.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    const nav = await wide.getByRole('navigation', { name: 'Console' }).boundingBox();
    const main = await wide.locator('main').boundingBox();
    expect(nav!.x + nav!.width).toBeLessThanOrEqual(main!.x);
  });

  it('follows the system: the paper is the theme’s, and the focus ring is 3px at 3:1 or more against what is behind it', async () => {
    await visit(wide, 'People');
    const paper = await wide.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(paper).toBe(theme === 'dark' ? 'rgb(17, 24, 39)' : 'rgb(255, 255, 255)');
    // The skip link, then the header's Sign out (on the header's wash), then the menu's first link (on the paper).
    for (const [presses, where] of [
      [2, 'header'],
      [1, 'nav'],
    ] as const) {
      for (let i = 0; i < presses; i++) await wide.keyboard.press('Tab');
      const ring = await wide.evaluate((where) => {
        const focused = document.activeElement as HTMLElement;
        const paint = (e: Element | null): string => {
          for (let at = e; at; at = at.parentElement) {
            const colour = getComputedStyle(at).backgroundColor;
            if (colour !== 'rgba(0, 0, 0, 0)') return colour;
          }
          return getComputedStyle(document.documentElement).backgroundColor;
        };
        const style = getComputedStyle(focused);
        const within = focused.closest(where) !== null;
        return { within, colour: style.outlineColor, width: style.outlineWidth, behind: paint(focused.parentElement) };
      }, where);
      expect(ring.within).toBe(true);
      expect(ring.width).toBe('3px');
      expect(contrast(ring.colour, ring.behind)).toBeGreaterThanOrEqual(3);
    }
  });
});
