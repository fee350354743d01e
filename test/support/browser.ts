// A Chromium driven by playwright-core (no browser download); flags keep it off the network.
// test/support/global-setup.ts finds the browser (find-browser.ts) before any test file runs.
import { Browser, chromium } from 'playwright-core';
import { aptInstallChromium, findBrowser } from './find-browser';

/** The browser's path; a run without jest's global set-up (one file by its path) looks for itself. */
export function chromiumPath(): string {
  if (process.env.LIFELINE_NO_BROWSER) throw new Error(process.env.LIFELINE_NO_BROWSER);
  const found = findBrowser({ env: process.env, isRoot: process.getuid?.() === 0, install: aptInstallChromium });
  if (found.path === null) throw new Error(found.problem);
  return found.path;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
