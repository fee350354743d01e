// The browser the tag's tests drive, found without a manual step: the CHROMIUM_PATH
// setting, else a Chromium or Chrome on PATH or in the usual places, else Debian's chromium installed
// with apt-get when running as root. Nothing found: one sentence naming the fix; the tests never skip.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const WELL_KNOWN = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const NO_BROWSER =
  'No Chromium or Chrome was found for the website tag tests: install one (apt-get install -y chromium) or set CHROMIUM_PATH to its executable.';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first browser on PATH (or at a well-known place), or null. */
export function locateBrowser(env: Record<string, string | undefined>, places: string[] = WELL_KNOWN): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    for (const name of BROWSER_NAMES) if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return places.find(executable) ?? null;
}

export interface FindOptions {
  env: Record<string, string | undefined>;
  isRoot: boolean;
  /** Installs Debian's chromium; returns false when that did not work. */
  install: () => boolean;
  /** Where to look besides PATH (tests narrow it). */
  places?: string[];
}

export type Found = { path: string; how: 'setting' | 'system' | 'installed' } | { path: null; problem: string };

export function findBrowser({ env, isRoot, install, places }: FindOptions): Found {
  if (env.CHROMIUM_PATH) {
    if (executable(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH, how: 'setting' };
    return {
      path: null,
      problem: `CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which is not an executable browser: fix the path or unset it.`,
    };
  }
  const system = locateBrowser(env, places);
  if (system) return { path: system, how: 'system' };
  if (isRoot && install()) {
    const installed = locateBrowser(env, places);
    if (installed) return { path: installed, how: 'installed' };
  }
  return { path: null, problem: NO_BROWSER };
}

export function aptInstallChromium(): boolean {
  try {
    execFileSync(
      'sh',
      [
        '-c',
        'command -v apt-get >/dev/null && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
      ],
      {
        stdio: 'ignore',
        timeout: 600_000,
      },
    );
    return true;
  } catch {
    return false;
  }
}
