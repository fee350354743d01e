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

type Log = (line: string) => void;

/** The embedded database and Redis this launcher started: stopped after the children, in reverse. */
class EmbeddedServices {
  private readonly started: Resolved[] = [];

  add(service: Resolved): Resolved {
    this.started.push(service);
    return service;
  }

  async stop(): Promise<void> {
    for (const service of [...this.started].reverse()) {
      await Promise.race([service.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
    }
  }
}

export async function launch(apps: AppName[], migrations: Migration[], root = resolve(__dirname, '../../../..').replace(/\/dist$/, '')): Promise<void> {
  loadDotEnv(root);
  const log: Log = (line) => console.log(`[lifeline] ${line}`);
  const embedded = new EmbeddedServices();
  const env = await prepare(root, migrations, log, embedded);
  const supervisor = new Supervisor(root, env, log, embedded);
  for (const app of apps) supervisor.start(app);
  process.on('SIGINT', () => supervisor.stopAll('SIGINT'));
  process.on('SIGTERM', () => supervisor.stopAll('SIGTERM'));
  if (process.ppid !== 1) watchParent(() => supervisor.stopAll('the process that started it is gone'));
}

/**
 * Resolves the database and Redis, checks the settings and runs the migrations once: the children's
 * environment. A failure is one sentence and an exit (EXIT_CONFIG when retrying cannot help).
 */
async function prepare(root: string, migrations: Migration[], log: Log, embedded: EmbeddedServices): Promise<NodeJS.ProcessEnv> {
  const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : join(root, '.data');
  let databaseUrl = '';
  try {
    const probe = { port: Number(process.env.LIFELINE_PG_PROBE_PORT || 5432) };
    const database = embedded.add(await resolveDatabase(process.env, dataDir, log, probe));
    databaseUrl = database.url;
    const redis = embedded.add(await resolveRedis(process.env, dataDir, log));
    const production = process.env.NODE_ENV === 'production';
    const appSecret = process.env.APP_SECRET || (production ? undefined : developmentAppSecret(dataDir));
    const config = loadConfig(process.env, { databaseUrl: database.url, redisUrl: redis.url, appSecret });
    await ensureRedisReachable(config);
    const ran = await migrate(config, migrations, log);
    if (ran.length) log(`migrations run: ${ran.join(', ')}`);
    return {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      APP_SECRET: config.appSecret,
      DATABASE_POOL_SIZE: String(config.databasePoolSize),
    };
  } catch (error) {
    const known = error instanceof ConfigError ? error : databaseUnreachable(error, databaseUrl);
    console.error(known ? known.message : error);
    await embedded.stop();
    process.exit(known ? EXIT_CONFIG : 1);
  }
}

/** Compiled (dist/…/launcher.js) runs the compiled apps; from the sources, the TypeScript through swc. */
function appCommand(root: string, app: AppName): string[] {
  const compiled = extname(__filename) === '.js';
  return [
    ...NODE_FLAGS,
    ...(compiled ? [join(root, 'dist', `apps/${app}/src/main.js`)] : ['-r', '@swc-node/register', join(root, `apps/${app}/src/main.ts`)]),
  ];
}

/** The apps as child processes: a crashed one starts again after a growing pause; a stop stops them all. */
class Supervisor {
  private readonly children = new Map<AppName, ChildProcess>();
  private readonly restarts = new Map<AppName, number>();
  private readonly pending = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(
    private readonly root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: Log,
    private readonly embedded: EmbeddedServices,
  ) {}

  start(app: AppName): void {
    const began = Date.now();
    // The IPC channel tells the child when the launcher is gone, whatever killed it.
    const child = spawn(process.execPath, appCommand(this.root, app), { cwd: this.root, env: this.env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
    this.children.set(app, child);
    this.log(`${app} started (pid ${child.pid})`);
    child.on('exit', (code, signal) => this.exited(app, began, code, signal));
  }

  stopAll(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.log(`stopping (${reason})`);
    for (const timer of this.pending) clearTimeout(timer);
    setTimeout(() => {
      this.log(`still running after ${STOP_WITHIN_MS / 1000} s: killing`);
      for (const child of this.children.values()) child.kill('SIGKILL');
      process.exit(1);
    }, STOP_WITHIN_MS + 1_000).unref();
    for (const child of this.children.values()) if (child.exitCode === null) child.kill('SIGTERM');
    this.finish();
  }

  private exited(app: AppName, began: number, code: number | null, signal: NodeJS.Signals | null): void {
    this.children.delete(app);
    if (this.stopping) return this.finish();
    if (exitWasAStop(code, signal)) {
      this.log(`${app} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
      return this.stopAll(`${app} stopped`);
    }
    if (code === EXIT_CONFIG) {
      process.exitCode = 1;
      return this.stopAll(`${app} cannot start with these settings`);
    }
    const n = Date.now() - began > HEALTHY_AFTER_MS ? 1 : (this.restarts.get(app) ?? 0) + 1;
    this.restarts.set(app, n);
    const delay = restartDelayMs(n);
    this.log(`${app} crashed (${signal ?? `exit ${code}`}); restarting it in ${delay / 1000} s (restart ${n})`);
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      if (!this.stopping) this.start(app);
    }, delay);
    this.pending.add(timer);
  }

  /** Once every child is gone, the embedded services stop and so does the launcher. */
  private finish(): void {
    if (this.children.size > 0) return;
    void this.embedded.stop().then(() => process.exit());
  }
}
