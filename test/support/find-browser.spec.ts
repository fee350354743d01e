// The browser finder behind `npm test`: setting, system, install as root, or one sentence.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBrowser, NO_BROWSER } from './find-browser';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'browser-finder-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeBrowser(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

const never = () => {
  throw new Error('must not install');
};

it('CHROMIUM_PATH wins when it names an executable', () => {
  const path = fakeBrowser('my-chrome');
  expect(findBrowser({ env: { CHROMIUM_PATH: path, PATH: '' }, isRoot: true, install: never, places: [] })).toEqual({
    path,
    how: 'setting',
  });
});

it('a CHROMIUM_PATH that is not there is named in the sentence, not replaced by a guess', () => {
  const found = findBrowser({
    env: { CHROMIUM_PATH: join(dir, 'missing'), PATH: '' },
    isRoot: true,
    install: never,
    places: [],
  });
  expect(found).toEqual({ path: null, problem: expect.stringContaining(`CHROMIUM_PATH is ${join(dir, 'missing')}`) });
});

it.each(['chromium', 'google-chrome', 'chromium-browser'])('finds %s on PATH', (name) => {
  const path = fakeBrowser(name);
  expect(findBrowser({ env: { PATH: `/nowhere:${dir}` }, isRoot: true, install: never, places: [] })).toEqual({
    path,
    how: 'system',
  });
});

it('a file on PATH that cannot run is no browser', () => {
  writeFileSync(join(dir, 'chromium'), '');
  expect(findBrowser({ env: { PATH: dir }, isRoot: false, install: never, places: [] })).toEqual({
    path: null,
    problem: NO_BROWSER,
  });
});

it('as root with nothing found, installs chromium and uses it', () => {
  let installs = 0;
  const install = () => {
    installs++;
    fakeBrowser('chromium');
    return true;
  };
  expect(findBrowser({ env: { PATH: dir }, isRoot: true, install, places: [] })).toEqual({
    path: join(dir, 'chromium'),
    how: 'installed',
  });
  expect(installs).toBe(1);
});

it('not root, or an install that fails: one sentence naming both fixes', () => {
  expect(findBrowser({ env: { PATH: dir }, isRoot: false, install: never, places: [] })).toEqual({
    path: null,
    problem: NO_BROWSER,
  });
  expect(findBrowser({ env: { PATH: dir }, isRoot: true, install: () => false, places: [] })).toEqual({
    path: null,
    problem: NO_BROWSER,
  });
  expect(NO_BROWSER).toMatch(/^[^\n]+\.$/);
  expect(NO_BROWSER).toMatch(/apt-get install -y chromium.*CHROMIUM_PATH/);
});
