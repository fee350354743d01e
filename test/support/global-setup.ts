// jest globalSetup of the e2e tier (jest.config.js), once for the run: builds the migrated template
// database the test files clone (test/support/template.ts), builds the admin console, and finds (or
// installs) the browser, handing the answers to every test file through the environment. Only the tests
// that need what failed fail. The medium tier's set-up (medium-setup.ts) builds the template alone;
// the unit tier has none.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { aptInstallChromium, findBrowser } from './find-browser';

const root = join(__dirname, '..', '..');

/** In a child: this process resolves no @app/* imports. A failure is told, and the test files that need the database say why. */
async function makeTemplate(): Promise<void> {
  const script = join('test', 'support', 'build-template.ts');
  try {
    await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', script], { cwd: root, timeout: 600_000 });
  } catch (error) {
    const told = (error as { stderr?: string }).stderr?.trim() || String(error);
    console.log(`\nThe template test database was not made (${told.split('\n')[0]}); each test file tries again.`);
  }
}

let template: Promise<void> | undefined;
/** Once per run: a run of both tiers calls it from both set-ups (jest loads this module once for both). */
export function buildTemplate(): Promise<void> {
  template ??= makeTemplate();
  return template;
}

/** The admin console's static files (scripts/build-console.js, with its GraphQL and type checks), when stale. */
async function buildConsole(): Promise<void> {
  try {
    // CONSOLE_CHECKS=off skips the GraphQL and type checks (only while another part of the console is mid-change).
    const checks = process.env.CONSOLE_CHECKS === 'off' ? ['--no-checks'] : [];
    await promisify(execFile)(process.execPath, [join('scripts', 'build-console.js'), '--if-stale', ...checks], {
      cwd: root,
      timeout: 600_000,
    });
  } catch (error) {
    const told = (error as { stderr?: string }).stderr?.trim() || String(error);
    process.env.LIFELINE_NO_CONSOLE = `The admin console did not build: ${told}`;
    console.log(`\n${process.env.LIFELINE_NO_CONSOLE}`);
  }
}

function findTheBrowser(): void {
  const found = findBrowser({ env: process.env, isRoot: process.getuid?.() === 0, install: aptInstallChromium });
  if (found.path === null) {
    process.env.LIFELINE_NO_BROWSER = found.problem;
    return;
  }
  process.env.CHROMIUM_PATH = found.path;
  if (found.how === 'installed')
    console.log(`\nInstalled Debian's chromium for the website tag tests (${found.path}).`);
}

export default async function globalSetup(): Promise<void> {
  const made = buildTemplate();
  const consoleBuilt = buildConsole();
  findTheBrowser();
  await Promise.all([made, consoleBuilt]);
}
