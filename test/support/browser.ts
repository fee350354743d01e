// A Chromium driven by playwright-core (no browser download); flags keep it off the network.
// test/support/global-setup.ts finds the browser (find-browser.ts) before any test file runs.
import { createServer, RequestListener } from 'node:http';
import { Browser, chromium } from 'playwright-core';
import { freePort } from '@app/platform';
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

/**
 * A customer's site for a browser test, on a free port of 127.0.0.1 and named by localhost (an origin
 * the workspace allows): `handle` answers every request. Close it with close().
 */
export async function startSite(handle: RequestListener): Promise<{ url: string; close: () => void }> {
  const port = await freePort();
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://localhost:${port}`, close: () => server.close() };
}
