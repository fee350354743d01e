// jest globalSetup: finds (or installs) the browser once for the whole run and hands the answer to
// every test file through the environment. Only the browser tests fail when none is found.
import { aptInstallChromium, findBrowser } from './find-browser';

export default function globalSetup(): void {
  const found = findBrowser({ env: process.env, isRoot: process.getuid?.() === 0, install: aptInstallChromium });
  if (found.path === null) {
    process.env.LIFELINE_NO_BROWSER = found.problem;
    return;
  }
  process.env.CHROMIUM_PATH = found.path;
  if (found.how === 'installed') console.log(`\nInstalled Debian's chromium for the website tag tests (${found.path}).`);
}
