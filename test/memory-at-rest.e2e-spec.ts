// Memory at rest (libs/platform/src/runtime/memory-at-rest.ts): a process that grew its
// young generation while starting gives it back once quiet, by asking V8's memory reducer (real V8, in a
// child process run with the apps' NODE_FLAGS), and never asks while its event loop is busy. Packages
// used only now and then load on first use.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { NODE_FLAGS } from '@app/platform/launcher';

const root = resolve(__dirname, '..');
const MB = 2 ** 20;

interface Seen {
  ms: number;
  young: number;
  asks: number;
  finished: boolean;
}

async function watchChild(mode: 'quiet' | 'busy', forMs: number): Promise<Seen[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...NODE_FLAGS, '-r', '@swc-node/register', 'test/support/memory-at-rest.ts', mode, String(forMs)],
    { cwd: root },
  );
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Seen);
}

it('once quiet, the young generation the start-up grew is given back: V8 is asked, within seconds', async () => {
  const seen = await watchChild('quiet', 40_000);
  expect(seen[0].young).toBeGreaterThanOrEqual(64 * MB); // NODE_FLAGS' 2 × 64 MB, grown by the start-up
  const last = seen[seen.length - 1];
  // Asked once on a quiet machine; a loaded one can make a second of the child's look busy, which withdraws the ask until quiet again.
  expect(last.finished).toBe(true);
  expect(last.asks).toBeGreaterThanOrEqual(1);
  expect(last.asks).toBeLessThanOrEqual(3);
  expect(last.young).toBeLessThanOrEqual(16 * MB);
  expect(last.ms).toBeLessThan(20_000); // ~0.75 s quiet, then V8's next check (every 8 s) and its collection
}, 90_000);

it('while the event loop is busy V8 is never asked', async () => {
  const seen = await watchChild('busy', 6_000);
  expect(seen.length).toBeGreaterThan(10);
  expect(seen[0].young).toBeGreaterThanOrEqual(64 * MB);
  expect(seen.every((s) => s.asks === 0)).toBe(true);
}, 60_000);

it('the libs load terser (minifying the tag) and nodemailer (SMTP_URL) on first use only', async () => {
  const script =
    "require('@app/events'); require('@app/messaging'); console.log(JSON.stringify(Object.keys(require.cache).filter((f) => /node_modules\\/(terser|nodemailer)\\//.test(f))))";
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', '@swc-node/register', '-r', 'tsconfig-paths/register', '-e', script],
    { cwd: root },
  );
  expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual([]);
}, 120_000);
