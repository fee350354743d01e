// SIGTERM or SIGINT to any process of the `npm start` tree (npm,
// the launcher, the api, the worker) stops all of them within 10 s, also on embedded PGlite; a worker
// that crashes is started again and the deliveries it owes go out.
import { createServer, Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@app/platform';
import { NODE_FLAGS } from '@app/platform/launcher';
import { dropDatabase, eventually, testDatabaseName } from './harness';
import { descendants, run, Running, waitForHealth, waitUntilGone } from './support/processes';
import { cloneTemplate } from './support/template';

const root = resolve(__dirname, '..');
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

interface Tree {
  started: Running;
  port: number;
  pids: Record<'top' | 'launcher' | 'api' | 'worker', number>;
  all: number[];
}

async function startTree(
  how: 'npm' | 'launcher',
  env: Record<string, string | undefined>,
  withinMs = 180_000,
): Promise<Tree> {
  const port = await freePort();
  const started =
    how === 'npm'
      ? run('npm', ['start'], { cwd: root, env: { ...process.env, ...env, PORT: String(port) } })
      : run(process.execPath, ['scripts/start.js'], { cwd: root, env: { ...process.env, ...env, PORT: String(port) } });
  await waitForHealth(`http://127.0.0.1:${port}/health`, withinMs);
  await started.waitFor('worker started\n');
  // The api answers /health as soon as it listens; the demo keys are printed a moment later.
  await started.waitFor('api listening');
  const all = [started.child.pid!, ...descendants(started.child.pid!)];
  const find = (part: string) => all.find((pid) => cmdline(pid).includes(part))!;
  const pids = {
    top: started.child.pid!,
    launcher: find('scripts/start.js'),
    api: find('apps/api/src/main'),
    worker: find('apps/worker/src/main'),
  };
  expect(Object.values(pids).every(Boolean)).toBe(true);
  // The apps run with the launcher's Node flags (NODE_FLAGS).
  for (const app of [pids.api, pids.worker]) expect(cmdline(app)).toContain(NODE_FLAGS.join(' '));
  return { started, port, pids, all };
}

const killAll = (pids: number[]) => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
};

const baseEnv = (database: string) => ({
  NODE_ENV: 'development',
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
  REDIS_PREFIX: `lt:${database}`,
  APP_SECRET: 'tree-test-secret-0123456789-0123456789',
  LOG_LEVEL: 'warn',
});

describe('a signal to any process of the tree stops them all within 10 s', () => {
  const databases: string[] = [];
  afterAll(async () => {
    for (const d of databases) await dropDatabase(d);
  });

  it.each([
    ['SIGTERM', 'npm', 'top'],
    ['SIGTERM', 'the launcher', 'launcher'],
    ['SIGTERM', 'the api', 'api'],
    ['SIGINT', 'the worker', 'worker'],
  ] as const)(
    '%s to %s',
    async (signal, _name, target) => {
      const database = testDatabaseName();
      databases.push(database);
      // Migrated already (a clone of the template): the tree's start is what is tested, not the migrations.
      await cloneTemplate(database);
      const tree = await startTree('npm', baseEnv(database));
      try {
        process.kill(tree.pids[target], signal);
        expect(await waitUntilGone(tree.all, 10_000)).toEqual([]);
        expect(tree.started.output()).not.toMatch(/crashed/);
      } finally {
        killAll(tree.all);
      }
    },
    240_000,
  );
});

it('on embedded PGlite, SIGTERM to the launcher stops everything within 10 s and removes .data/pg.url', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lifeline-tree-'));
  const env = {
    ...baseEnv('unused'),
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    LIFELINE_PG_PROBE_PORT: String(await freePort()),
  };
  // A new PGlite data folder takes minutes to initialise on a busy machine.
  const tree = await startTree('launcher', env, 480_000);
  try {
    expect(tree.started.output()).toMatch(/embedded PGlite/);
    expect(readFileSync(join(dataDir, 'pg.url'), 'utf8')).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    process.kill(tree.pids.launcher, 'SIGTERM');
    expect(await waitUntilGone(tree.all, 10_000)).toEqual([]);
    expect(await tree.started.exited).toEqual({ code: 0, signal: null });
    expect(() => readFileSync(join(dataDir, 'pg.url'))).toThrow();
  } finally {
    killAll(tree.all);
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 600_000);

describe('a crashed worker is restarted and deliveries resume', () => {
  let receiver: Server;
  const received: Array<{ type: string; event?: string }> = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body);
        received.push({ type: parsed.type, event: parsed.data?.event });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(() => receiver.close());

  it('SIGKILL to the worker: the launcher logs the crash, starts it again after a pause, the event posted meanwhile is delivered', async () => {
    const database = testDatabaseName();
    await cloneTemplate(database);
    const tree = await startTree('launcher', { ...baseEnv(database), UNSAFE_ALLOW_PRIVATE_TARGETS: 'true' });
    const url = `http://127.0.0.1:${tree.port}`;
    try {
      const secret = tree.started.output().match(/secret key: +(sk_live_\w+)/)![1];
      const gql = async (query: string, variables: object) =>
        (
          await fetch(`${url}/graphql`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query, variables }),
          })
        ).json();
      const address = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      const made = await gql(
        'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
        { input: { url: address, triggers: ['event'] } },
      );
      expect(made.errors).toBeUndefined();
      const post = (event: string) =>
        fetch(`${url}/api/v1/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: event, email: 'ada@example.com' }),
        });

      expect((await post('before_crash')).status).toBe(200);
      await eventually(async () => received.some((r) => r.event === 'before_crash'), 60_000);

      process.kill(tree.pids.worker, 'SIGKILL');
      await tree.started.waitFor(/worker crashed \(SIGKILL\); restarting it in 1 s \(restart 1\)/, 10_000);
      expect((await post('while_down')).status).toBe(200); // the api keeps answering
      await tree.started.waitFor(/worker started \(pid \d+\)[\s\S]*worker started \(pid \d+\)/, 30_000);
      await eventually(async () => received.some((r) => r.event === 'while_down'), 120_000);
      expect(received.filter((r) => r.event === 'while_down')).toHaveLength(1);

      process.kill(tree.pids.launcher, 'SIGTERM');
      expect(
        await waitUntilGone([tree.pids.launcher, tree.pids.api, ...descendants(tree.pids.launcher)], 10_000),
      ).toEqual([]);
    } finally {
      killAll([...tree.all, ...descendants(tree.pids.launcher)]);
      await dropDatabase(database);
    }
  }, 300_000);
});
