// Lighthouse 12.2 (its command line, with Debian's Chromium) on a signed-in console page: the
// performance score and its metrics, cold (Lighthouse empties the cache first), on its mobile
// settings (a mid-range phone, simulated slow 4G and a 4× slower CPU) or its desktop preset.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chromiumPath } from '../test/support/browser';

const run = promisify(execFile);

export interface Score {
  /** 0 to 100. */
  performance: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
}

interface Report {
  categories: { performance: { score: number } };
  audits: Record<string, { numericValue: number }>;
}

/** One Lighthouse run of `url`, its requests carrying the session cookie. */
export async function lighthouse(url: string, cookie: string, preset: 'mobile' | 'desktop'): Promise<Score> {
  const args = [
    require.resolve('lighthouse/cli/index.js'),
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--only-categories=performance',
    `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking',
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  const { stdout } = await run(process.execPath, args, {
    env: { ...process.env, CHROME_PATH: chromiumPath() },
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(stdout) as Report;
  const value = (audit: string) => report.audits[audit].numericValue;
  return {
    performance: Math.round(report.categories.performance.score * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    speedIndex: value('speed-index'),
  };
}

/** The run with the median score of `runs`. */
export async function medianLighthouse(
  url: string,
  cookie: string,
  preset: 'mobile' | 'desktop',
  runs: number,
): Promise<Score> {
  const scores: Score[] = [];
  for (let i = 0; i < runs; i++) scores.push(await lighthouse(url, cookie, preset));
  scores.sort((a, b) => a.performance - b.performance);
  return scores[Math.floor(scores.length / 2)];
}

/** A table row: the page, its score and metrics. */
export function scoreRow(page: string, preset: string, s: Score): string {
  const ms = (n: number) => `${Math.round(n)} ms`;
  return `| ${page} | ${preset} | **${s.performance}** | ${ms(s.fcp)} | ${ms(s.lcp)} | ${ms(s.tbt)} | ${s.cls.toFixed(3)} | ${ms(s.speedIndex)} |`;
}
