// The production path (docs/operations.md#production): `npm run build` output copied into a scratch folder with only
// production dependencies (`npm ci --omit=dev`, from the npm cache), started with the exact command
// lines of the Dockerfile and docker-compose.yml against PostgreSQL and Redis. No Docker engine here.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@app/platform';
import { dropDatabase, testDatabaseName } from './harness';
import { run, waitForHealth } from './support/processes';

const root = resolve(__dirname, '..');
let scratch: string;
let database: string;

/** The JSON array after `key` in a Dockerfile or compose file line, e.g. CMD ["node", "..."]. */
function commandLine(text: string, pattern: RegExp): string[] {
  const match = text.match(pattern);
  if (!match) throw new Error(`no ${pattern} found`);
  return JSON.parse(match[1]);
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.js'], { cwd: root, stdio: 'ignore' });
  scratch = mkdtempSync(join(tmpdir(), 'lifeline-prod-'));
  for (const item of ['dist', 'package.json', 'package-lock.json'])
    cpSync(join(root, item), join(scratch, item), { recursive: true });
  execFileSync('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund'], {
    cwd: scratch,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  database = testDatabaseName();
}, 600_000);

afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  if (database) await dropDatabase(database);
}, 180_000);

const env = (port: number) => ({
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_PREFIX: `lt:${database}`,
  APP_SECRET: 'production-test-secret-0123456789-abcdef',
  ADMIN_TOKEN: 'production-test-admin-token-0123456789',
  PORT: String(port),
});

/** Templates render in worker threads, which load their module from dist/ as the api does. */
async function expectRenderThreads(url: string): Promise<void> {
  const call = async (path: string, key: string, body: unknown) => {
    const answer = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json() };
  };
  const made = await call('/graphql', env(0).ADMIN_TOKEN, {
    query: 'mutation { createWorkspace(input: { slug: "prod-render", owner: "owner@example.com" }) { secretKey } }',
  });
  const key = made.body.data.createWorkspace.secretKey;
  expect((await call('/api/v1/events', key, { type: 'signup', email: 'ada@example.com' })).status).toBe(200);
  expect(
    await call('/api/v1/messages', key, { to: 'ada@example.com', subject: 'Hi {{ person.email }}', body: '**Hello**' }),
  ).toMatchObject({ status: 200, body: { ok: true } });
  expect(
    await call('/api/v1/messages', key, { to: 'ada@example.com', subject: 'Hi', body: '{{ x | shout }}' }),
  ).toMatchObject({ status: 400, body: { error: 'invalid_field' } });
}

it('the scratch install has no development dependency and the build needs none', () => {
  for (const dev of ['@swc-node/register', '@swc/core', 'typescript', 'jest'])
    expect(existsSync(join(scratch, 'node_modules', dev))).toBe(false);
  expect(existsSync(join(scratch, 'dist/apps/api/src/main.js'))).toBe(true);
  expect(readFileSync(join(scratch, 'dist/apps/api/src/main.js'), 'utf8')).not.toMatch(/require\("@app\//);
  expect(existsSync(join(scratch, 'dist/libs/events/src/tag/track.min.js'))).toBe(true);
});

it("compose's migrate command, then the Dockerfile's CMD (api) and compose's worker command: /health answers, JSON logs, SIGTERM stops each", async () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
  const [node, ...apiArgs] = commandLine(dockerfile, /^CMD (\[.*\])$/m);
  const migrateArgs = commandLine(compose, /migrate:[\s\S]*?command: (\[.*\])/).slice(1);
  const workerArgs = commandLine(compose, /worker:[\s\S]*?command: (\[.*\])/).slice(1);
  expect(node).toBe('node');
  expect(commandLine(compose, /api:[\s\S]*?command: (\[.*\])/)).toEqual(['node', ...apiArgs]);

  const port = await freePort();
  const migrate = run(process.execPath, migrateArgs, { cwd: scratch, env: env(port) });
  expect(await migrate.exited).toEqual({ code: 0, signal: null });
  expect(migrate.output()).toMatch(/Ran \d+ migration\(s\)/);

  const api = run(process.execPath, apiArgs, { cwd: scratch, env: env(port) });
  const worker = run(process.execPath, workerArgs, { cwd: scratch, env: env(port) });
  try {
    const health = await waitForHealth(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toMatchObject({ ok: true });
    await worker.waitFor('worker started');
    const refused = await fetch(`http://127.0.0.1:${port}/api/v1/events`, {
      method: 'POST',
      headers: { 'x-request-id': 'prod-test-1' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toBe('prod-test-1');
    await api.waitFor('prod-test-1');
    const line = api
      .output()
      .split('\n')
      .find((l) => l.includes('"prod-test-1"'))!;
    expect(JSON.parse(line)).toMatchObject({
      name: 'api',
      req: { id: 'prod-test-1', method: 'POST', url: '/api/v1/events' },
      res: { statusCode: 401 },
      refusal: 'invalid_key',
    });
    expect(api.output()).not.toContain('Created workspace "demo"');
    await expectRenderThreads(`http://127.0.0.1:${port}`);

    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await api.exited).toEqual({ code: 0, signal: null });
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  } finally {
    api.child.kill('SIGKILL');
    worker.child.kill('SIGKILL');
  }
}, 240_000);
