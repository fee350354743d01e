// `npm start` / `npm run start:prod`: resolves the database and Redis (embedded fallbacks of
// decisions.md section 1), runs migrations once, then runs the api and the worker as child processes.
// A child that crashes is started again after a growing pause (issue 17): one process failing never
// takes the other down. A stop (SIGTERM/SIGINT to any process of the tree, or the npm above dying)
// stops everything within 10 seconds.
import { ChildProcess, spawn } from 'node:child_process';
import { extname, join, resolve } from 'node:path';
import { ConfigError, loadConfig, loadDotEnv } from '../config/config';
import { migrate } from '../database/migrate';
import type { Migration } from '../database/migration-state';
import { developmentAppSecret, resolveDatabase, resolveRedis, Resolved } from './embedded';
import { EXIT_CONFIG, STOP_WITHIN_MS, watchParent } from './lifecycle';
import { ensureRedisReachable } from './redis-reachable';
import { databaseUnreachable } from './unreachable';

type AppName = 'api' | 'worker';

/**
 * Node's flags for the api and the worker, wherever they run (this launcher, the start:prod scripts, the
 * image's NODE_OPTIONS; test/runtime-flags.spec.ts keeps them the same). A young generation of 64 MB
 * instead of 16: a batch of 100 events allocates a few MB that die young, and with 16 MB the
 * scavenger ran often enough to promote them. It cut the api's CPU per batched event by about a
 * fifth (bench/RESULTS.md, issue 18), at up to about 100 MB more memory per process under load.
 */
export const NODE_FLAGS = ['--max-semi-space-size=64'];

/** Pause before restart number n (1-based): 1, 2, 4, 8, 16, then 30 s. */
export function restartDelayMs(n: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, n - 1));
}

/** A child that ran this long before crashing counts as healthy: its next restart starts at 1 s again. */
const HEALTHY_AFTER_MS = 60_000;

/** Whether an exit was asked for (a signal to stop, or a clean exit) rather than a crash. */
export function exitWasAStop(code: number | null, signal: NodeJS.Signals | null): boolean {
  return code === 0 || signal === 'SIGTERM' || signal === 'SIGINT';
}

export async function launch(apps: AppName[], migrations: Migration[], root = resolve(__dirname, '../../../..').replace(/\/dist$/, '')): Promise<void> {
  loadDotEnv(root);
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : join(root, '.data');
  const log = (line: string) => console.log(`[lifeline] ${line}`);
  const started: Resolved[] = [];
  const stopEmbedded = async () => {
    for (const service of started.reverse()) {
      await Promise.race([service.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
    }
  };
  let env: NodeJS.ProcessEnv;
  let databaseUrl = '';
  try {
    const probe = { port: Number(process.env.LIFELINE_PG_PROBE_PORT || 5432) };
    const database = await resolveDatabase(process.env, dataDir, log, probe);
    started.push(database);
    databaseUrl = database.url;
    const redis = await resolveRedis(process.env, dataDir, log);
    started.push(redis);
    const production = process.env.NODE_ENV === 'production';
    const appSecret = process.env.APP_SECRET || (production ? undefined : developmentAppSecret(dataDir));
    const config = loadConfig(process.env, { databaseUrl: database.url, redisUrl: redis.url, appSecret });
    await ensureRedisReachable(config.redisUrl);
    const ran = await migrate(config, migrations, log);
    if (ran.length) log(`migrations run: ${ran.join(', ')}`);
    env = {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      APP_SECRET: config.appSecret,
      DATABASE_POOL_SIZE: String(config.databasePoolSize),
    };
  } catch (error) {
    const known = error instanceof ConfigError ? error : databaseUnreachable(error, databaseUrl);
    console.error(known ? known.message : error);
    await stopEmbedded();
    process.exit(known ? EXIT_CONFIG : 1);
  }

  // Compiled (dist/…/launcher.js) runs the compiled apps; from the sources, the TypeScript through swc.
  const compiled = extname(__filename) === '.js';
  const command = (app: AppName) => [
    ...NODE_FLAGS,
    ...(compiled ? [join(root, 'dist', `apps/${app}/src/main.js`)] : ['-r', '@swc-node/register', join(root, `apps/${app}/src/main.ts`)]),
  ];

  const children = new Map<AppName, ChildProcess>();
  const restarts = new Map<AppName, number>();
  const pending = new Set<NodeJS.Timeout>();
  let stopping = false;

  const finish = () => {
    if (children.size > 0) return;
    void stopEmbedded().then(() => process.exit());
  };
  const stopAll = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`stopping (${reason})`);
    for (const timer of pending) clearTimeout(timer);
    setTimeout(() => {
      log(`still running after ${STOP_WITHIN_MS / 1000} s: killing`);
      for (const child of children.values()) child.kill('SIGKILL');
      process.exit(1);
    }, STOP_WITHIN_MS + 1_000).unref();
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGTERM');
    finish();
  };

  const start = (app: AppName) => {
    const began = Date.now();
    // The IPC channel tells the child when the launcher is gone, whatever killed it.
    const child = spawn(process.execPath, command(app), { cwd: root, env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
    children.set(app, child);
    log(`${app} started (pid ${child.pid})`);
    child.on('exit', (code, signal) => {
      children.delete(app);
      if (stopping) return finish();
      if (exitWasAStop(code, signal)) {
        log(`${app} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
        return stopAll(`${app} stopped`);
      }
      if (code === EXIT_CONFIG) {
        process.exitCode = 1;
        return stopAll(`${app} cannot start with these settings`);
      }
      const n = Date.now() - began > HEALTHY_AFTER_MS ? 1 : (restarts.get(app) ?? 0) + 1;
      restarts.set(app, n);
      const delay = restartDelayMs(n);
      log(`${app} crashed (${signal ?? `exit ${code}`}); restarting it in ${delay / 1000} s (restart ${n})`);
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (!stopping) start(app);
      }, delay);
      pending.add(timer);
    });
  };

  for (const app of apps) start(app);
  process.on('SIGINT', () => stopAll('SIGINT'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  if (process.ppid !== 1) watchParent(() => stopAll('the process that started it is gone'));
}

