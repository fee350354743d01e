// Helpers of the console frame's tests: WCAG's contrast ratio of two computed colours, and a page
// settled (its heading shown and nothing left saying "Loading…").
import type { Page } from 'playwright-core';

function channels(colour: string): [number, number, number] {
  const found = /rgba?\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)/.exec(colour);
  if (!found) throw new Error(`not an rgb() colour: ${colour}`);
  return [Number(found[1]), Number(found[2]), Number(found[3])];
}

function luminance(colour: string): number {
  const [r, g, b] = channels(colour).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The page's heading is shown and no "…" status (a read under way) is left in the page. */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page
    .waitForFunction(
      () => !Array.from(document.querySelectorAll('main [role="status"]')).some((s) => /…$/.test(s.textContent ?? '')),
      null,
      { timeout: 5000 },
    )
    .catch(() => undefined);
}
