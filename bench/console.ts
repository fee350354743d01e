// npm run bench:console — the admin console: how much the first page loads (its scripts and
// styles, gzipped) and how soon a signed-in page is interactive against a local api (NODE_ENV=production),
// in Debian's Chromium. Interactive = from navigation start until the page shows its data (People: the
// first result link; a person: the Timeline list), read from the page's own performance clock. The
// baseline, same run: the server-rendered /sign-in page (HTML, no script) until its load event. Then
// Lighthouse's performance score of People, a person and Charts, cold, on its mobile settings and its
// desktop preset (medians of BENCH_LIGHTHOUSE_RUNS runs; BENCH_ONLY=lighthouse skips the timings).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/support/browser';
import { medianLighthouse, scoreRow } from './lighthouse-pages';
import { median, ROOT, startService, workspaceWithKeys, writeResults } from './support';

const RUNS = process.env.BENCH_ONLY === 'lighthouse' ? 0 : Number(process.env.BENCH_RUNS ?? 15);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const PEOPLE = 200;

function firstPageBytes(): { scripts: number; styles: number } {
  const dir = join(ROOT, 'dist', 'console');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const sized = (pattern: RegExp) =>
    [...html.matchAll(pattern)].reduce((sum, m) => sum + gzipSync(readFileSync(join(dir, m[1]))).length, 0);
  return { scripts: sized(/"\/console\/(assets\/[^"]+\.js)"/g), styles: sized(/"\/console\/(assets\/[^"]+\.css)"/g) };
}

/** Milliseconds from navigation start until `ready` holds, by the page's own clock. */
async function timeTo(page: Page, url: string, ready: (page: Page) => Promise<unknown>): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  return page.evaluate(() => performance.now());
}

async function scoreLighthouse(url: string, cookie: string, person: string): Promise<void> {
  if (LIGHTHOUSE_RUNS === 0) return; // BENCH_LIGHTHOUSE_RUNS=0: the timings alone
  const rows: string[] = [];
  for (const [name, path] of [
    ['People', '/console/people'],
    ['a person', person],
    ['Charts', '/console/charts'],
  ]) {
    for (const preset of ['mobile', 'desktop'] as const)
      rows.push(scoreRow(name, preset, await medianLighthouse(`${url}${path}`, cookie, preset, LIGHTHOUSE_RUNS)));
  }
  writeResults(
    'Admin console: Lighthouse performance',
    `Command: \`BENCH_ONLY=lighthouse npm run bench:console\` (Lighthouse 12.2.3 in Debian's Chromium, headless; cold: Lighthouse
empties the cache before each run; mobile = its default, a phone on simulated slow 4G with a 4× slower CPU; desktop =
\`--preset=desktop\`; the median of ${LIGHTHOUSE_RUNS} runs). Target: performance ≥ 95.

| page | settings | performance | FCP | LCP | TBT | CLS | Speed Index |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Load average during the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} (2 cores, shared).`,
  );
}

async function main() {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.js'), '--if-stale'], { stdio: 'inherit' });
  const service = await startService('lifeline_bench_console', ['api']);
  const browser = await launchBrowser();
  try {
    const { secretKeys } = await workspaceWithKeys(service.url, 'console', 1);
    const events = Array.from({ length: PEOPLE * 5 }, (_, i) => ({
      type: i % 5 === 0 ? 'signup' : 'pageview',
      email: `p${i % PEOPLE}@bench.test`,
    }));
    for (let i = 0; i < events.length; i += 100) {
      await fetch(`${service.url}/api/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKeys[0]}` },
        body: JSON.stringify({ events: events.slice(i, i + 100) }),
      }).then((r) => r.text());
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${service.url}/sign-in?next=/console/people`);
    await page.getByLabel('Secret key').fill(secretKeys[0]);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((at) => at.pathname === '/console/people');
    const person = await page
      .getByRole('link', { name: /@bench\.test$/ })
      .first()
      .getAttribute('href');

    const signIn: number[] = [];
    const people: number[] = [];
    const personPage: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      signIn.push(await timeTo(page, `${service.url}/sign-in`, (p) => p.waitForLoadState('load')));
      people.push(
        await timeTo(page, `${service.url}/console/people`, (p) =>
          p
            .getByRole('link', { name: /@bench\.test$/ })
            .first()
            .waitFor(),
        ),
      );
      personPage.push(
        await timeTo(page, `${service.url}${person}`, (p) => p.getByRole('list', { name: 'Timeline' }).waitFor()),
      );
      // A first visit: a new context (no cached assets) carrying the same session cookie.
      const fresh = await browser.newContext({ storageState: await context.storageState() });
      const freshPage = await fresh.newPage();
      cold.push(
        await timeTo(freshPage, `${service.url}/console/people`, (p) =>
          p
            .getByRole('link', { name: /@bench\.test$/ })
            .first()
            .waitFor(),
        ),
      );
      await fresh.close();
    }
    const cookie = (await context.storageState()).cookies.map((k) => `${k.name}=${k.value}`).join('; ');
    await scoreLighthouse(service.url, cookie, person!);
    if (RUNS === 0) return;
    const bytes = firstPageBytes();
    const base = median(signIn);
    writeResults(
      'Admin console: first page weight and time to interactive',
      `Command: \`npm run bench:console\` (api alone, NODE_ENV=production; ${PEOPLE} people with 5 events each; ${RUNS} runs of each page in
Debian's Chromium, headless; medians). Interactive = navigation start until the page shows its data, by the page's own clock.

| what | median | × baseline |
|---|---|---|
| baseline: /sign-in (server-rendered HTML, no script) until load | ${base.toFixed(0)} ms | 1.0 |
| People (first result shown), assets cached | ${median(people).toFixed(0)} ms | ${(median(people) / base).toFixed(1)} |
| People, first visit (nothing cached) | ${median(cold).toFixed(0)} ms | ${(median(cold) / base).toFixed(1)} |
| a person (Timeline shown), assets cached | ${median(personPage).toFixed(0)} ms | ${(median(personPage) / base).toFixed(1)} |

First page's scripts ${(bytes.scripts / 1024).toFixed(1)} KB gzipped (target ≤ 250 KB), styles ${(bytes.styles / 1024).toFixed(1)} KB. Load average during the run:
${loadavg()
  .map((l) => l.toFixed(1))
  .join(', ')} (2 cores, shared). Target: interactive in under a second.`,
    );
  } finally {
    await browser.close();
    await service.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
