// Shared by the benchmarks: a real api (and worker) as child processes on a fresh local database.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort, migrate } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { NODE_FLAGS } from '@app/platform/launcher';

export const ROOT = resolve(__dirname, '..');
export const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const PG_ROOT = process.env.BENCH_DATABASE_ROOT ?? 'postgres://postgres@127.0.0.1:5432';

export interface Service {
  url: string;
  /** Every api's address, `url` first (more than one with `apis`). */
  urls: string[];
  databaseUrl: string;
  /** The process id of each app started (for bench/cpu.ts); `api` is the first api's. */
  pids: Partial<Record<'api' | 'worker', number>>;
  /** Every api process's id. */
  apiPids: number[];
  stop(): Promise<void>;
}

/**
 * A bench database's name with this worktree's in it (lifeline_bench_ingest_thin in a checkout named thin), so
 * benches run from two checkouts at once do not drop each other's database.
 */
export function benchDatabase(base: string): string {
  return `${base}_${basename(ROOT)
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')}`;
}

/** Drops the database `name` (and, with `create`, makes it again, empty); returns its URL. */
export async function dropDatabase(name: string, create = false): Promise<string> {
  const client = new Client({ connectionString: `${PG_ROOT}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  if (create) await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  return `${PG_ROOT}/${name}`;
}

/** Migrates with another checkout's own migrations (its schema, not this one's), in a child process there. */
function migrateAt(root: string, url: string): void {
  const script = `const { migrate } = require('./libs/platform/src'); const { MIGRATIONS } = require('./libs/schema/src');
    migrate({ databaseUrl: process.env.DATABASE_URL, databasePoolSize: 1 }, MIGRATIONS).then(() => process.exit(0), (e) => (console.error(e), process.exit(1)));`;
  execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'inherit',
  });
}

/** Drops the database and migrates it afresh: with this checkout's migrations, or those of the checkout at `root`. */
export async function resetDatabase(name: string, root = ROOT): Promise<string> {
  const url = await dropDatabase(name);
  if (root === ROOT) await migrate({ databaseUrl: url, databasePoolSize: 1 }, MIGRATIONS);
  else migrateAt(root, url);
  if (process.env.BENCH_EXPLAIN) {
    // Logs the plan and timing of every statement slower than BENCH_EXPLAIN ms to PostgreSQL's log.
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" SET session_preload_libraries = 'auto_explain'`);
    await admin.query(
      `ALTER DATABASE "${name}" SET auto_explain.log_min_duration = '${Number(process.env.BENCH_EXPLAIN)}ms'`,
    );
    await admin.query(`ALTER DATABASE "${name}" SET auto_explain.log_analyze = on`);
    await admin.end();
  }
  return url;
}

/**
 * The api and worker as child processes on a fresh database; `apis` api processes (each on its own port) when more than one.
 * `root`: the checkout to run (another worktree, e.g. the base of a change, measured in the same run); this one by default.
 */
export async function startService(
  database: string,
  apps: Array<'api' | 'worker'>,
  env: Record<string, string> = {},
  apis = 1,
  root = ROOT,
): Promise<Service> {
  const databaseUrl = await resetDatabase(database, root);
  const ports = await Promise.all(Array.from({ length: apps.includes('api') ? apis : 1 }, () => freePort()));
  const childEnv = {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: 'bench-app-secret-0123456789-0123456789',
    ADMIN_TOKEN,
    DATABASE_URL: databaseUrl,
    // BENCH_REDIS_URL: a Redis of the run's own, so `redis-cli info commandstats` counts this service alone.
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `bench:${database}:${Date.now()}`,
    PORT: String(ports[0]),
    BASE_URL: `http://127.0.0.1:${ports[0]}`,
    LOG_LEVEL: 'warn',
    ...env,
  };
  // What production runs (`npm run start:prod:api`): the checkout's dist/, brought up to date first.
  execFileSync(process.execPath, [join(root, 'scripts/build.js'), '--changed', '--quiet'], {
    cwd: root,
    stdio: 'inherit',
  });
  // BENCH_PROFILE=dir writes a CPU profile of each process there (node --cpu-prof).
  const start = (app: 'api' | 'worker', port: number) =>
    spawn(
      process.execPath,
      [
        ...NODE_FLAGS,
        ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
        join(root, `dist/apps/${app}/src/main.js`),
      ],
      {
        cwd: root,
        env: { ...childEnv, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  const started = apps.flatMap((app): Array<{ app: 'api' | 'worker'; child: ChildProcess }> =>
    (app === 'api' ? ports : [ports[0]]).map((port) => ({ app, child: start(app, port) })),
  );
  const children: ChildProcess[] = started.map((s) => s.child);
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  // Up to 90 s: on a shared, loaded machine the api and worker can take most of a minute to start.
  for (const url of urls) {
    for (let i = 0; i < 900; i++) {
      const ok = await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await new Promise((r) => setTimeout(r, 500));
  const pidOf = (app: 'api' | 'worker') => started.find((s) => s.app === app)?.child.pid;
  return {
    url: urls[0],
    urls,
    databaseUrl,
    pids: Object.fromEntries(apps.map((app) => [app, pidOf(app)])),
    apiPids: started.filter((s) => s.app === 'api').map((s) => s.child.pid!),
    stop: async () => {
      await Promise.all(
        children.map(
          (c) => new Promise((r) => (c.exitCode !== null ? r(null) : (c.once('exit', r), c.kill('SIGTERM')))),
        ),
      );
    },
  };
}

export async function gql(url: string, query: string, variables: Record<string, unknown> = {}, key = ADMIN_TOKEN) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: any; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** A workspace and `keys` secret keys (the 600-per-key limit applies to every key). */
export async function workspaceWithKeys(url: string, slug: string, keys: number) {
  const made = await gql(
    url,
    'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { workspace { id } secretKey publicKey } }',
    {
      i: { slug, owner: `owner@${slug}.test` },
    },
  );
  const secretKeys: string[] = [made.createWorkspace.secretKey];
  const createKey = async (member: string, by: string): Promise<string> =>
    (await gql(url, 'mutation($m: String!) { createKey(member: $m) { secretKey } }', { m: member }, by)).createKey
      .secretKey;
  // GraphQL allows 1,200 requests per key in ten minutes: past 1,000 keys made, another of the owner's makes the rest.
  let maker = secretKeys[0];
  for (let i = 1; i < keys; i++) {
    if (i % 1000 === 0) maker = await createKey(`owner@${slug}.test`, maker);
    secretKeys.push(await createKey(`bench${i}@${slug}.test`, maker));
  }
  return {
    workspaceId: made.createWorkspace.workspace.id as string,
    publicKey: made.createWorkspace.publicKey as string,
    secretKeys,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Prints a run's section and keeps it in .data/bench/<title>.md: bench/RESULTS.md holds one screen of
 * current figures, updated by hand from these (its history is in git).
 */
export function writeResults(title: string, body: string): void {
  const section = `## ${title}\n\n${body.trim()}\n`;
  const dir = join(ROOT, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.md`), section);
  console.log(`\n${section}`);
}
