// `npm start` (docs/operations.md#development-npm-start): the launcher migrates a new database, runs the api and the
// worker as two processes, the first start creates workspace demo and prints its keys once, /health
// answers, the admin console is served at /console, and Ctrl-C (SIGINT) stops both. The launcher
// process itself loads Node's built-ins only (it cost 127 MB at rest when it did the rest).
import { execFileSync, spawn } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { freePort } from '@app/platform';
import { dropDatabase, testDatabaseName } from './harness';

const root = resolve(__dirname, '..');

it('starts api and worker, prints the demo keys, serves /health, and stops both on Ctrl-C', async () => {
  const database = testDatabaseName();
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      APP_SECRET: 'launcher-test-secret-0123456789-abcdef',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    let health: Response | null = null;
    // Up to 75 s: with the rest of the suite running beside it, migrating a new database and starting two
    // processes has taken over 30 s on this 2-core machine.
    for (
      let i = 0;
      i < 300 && !(health?.ok && output.includes('worker started') && output.includes('api listening'));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 250));
      health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
    }
    if (health?.status !== 200) throw new Error(`npm start did not answer /health within 75 s; it printed:\n${output}`);
    expect(output).toMatch(/Created workspace "demo"/);
    expect(output).toMatch(/public key: +wk_[0-9A-Za-z]{24}/);
    expect(output).toMatch(/secret key: +sk_live_[0-9A-Za-z]{32}/);
    expect(output).toContain(`public address:  http://localhost:${port}/api/in/wk_`);
    expect(output).toContain('worker started');
    // The admin console: built by npm start when missing or stale (here by the test run's set-up already).
    expect(output).toContain(`Admin console: http://localhost:${port}/console`);
    const page = await fetch(`http://127.0.0.1:${port}/console/people`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/src="\/console\/assets\/index-[^"]+\.js"/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await fetch(`http://127.0.0.1:${port}/health`).catch(() => 'down')).toBe('down');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await dropDatabase(database);
  }
}, 120_000);

it("the launcher loads Node's built-ins and three files of its own (the preparation is a child's)", () => {
  execFileSync(process.execPath, ['scripts/build.js', '--changed', '--quiet'], { cwd: root });
  const script =
    "require('./dist/libs/platform/src/entries/launcher'); console.log(JSON.stringify(Object.keys(require.cache)))";
  const loaded = JSON.parse(
    execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' }),
  ) as string[];
  expect(loaded.map((file) => relative(root, file)).sort()).toEqual([
    'dist/libs/platform/src/entries/launcher.js',
    'dist/libs/platform/src/runtime/launcher.js',
    'dist/libs/platform/src/runtime/lifecycle.js',
  ]);
}, 60_000);
