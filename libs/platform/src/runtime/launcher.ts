// `npm start` / `npm run start:prod`: a small supervisor. A child process of its own (prepare.ts, run
// from dist/apps/launcher/src/prepare.js) resolves the database and Redis (embedded fallbacks of
// docs/operations.md#development-npm-start) and runs migrations once; then this process runs the api and
// the worker as child processes. It loads Node's built-ins only (no config, no database, no Redis, no
// compiler), so it costs little more than an idle Node. A child that crashes is started again after a
// growing pause: one process failing never takes the other down. A stop (SIGTERM/SIGINT to any process
// of the tree, or the npm above dying) stops everything within 10 seconds.
import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { EXIT_CONFIG, STOP_WITHIN_MS, watchParent } from './lifecycle';
import type { Prepared } from './prepare';

type AppName = 'api' | 'worker';

/**
 * Node's flags for the api and the worker, wherever they run (this launcher, the start:prod scripts, the
 * image's NODE_OPTIONS; test/runtime-flags.spec.ts keeps them the same). A young generation of 64 MB
 * instead of 16: a batch of 100 events allocates a few MB that die young, and with 16 MB the
 * scavenger ran often enough to promote them. It cut the api's CPU per batched event by about a
 * fifth (bench/RESULTS.md), at up to about 100 MB more memory per process under load.
 */
export const NODE_FLAGS = ['--max-semi-space-size=64'];

/** Pause before restart number n (1-based): 1, 2, 4, 8, 16, then 30 s. */
function restartDelayMs(n: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, n - 1));
}

/** A child that ran this long before crashing counts as healthy: its next restart starts at 1 s again. */
const HEALTHY_AFTER_MS = 60_000;

/** Whether an exit was asked for (a signal to stop, or a clean exit) rather than a crash. */
function exitWasAStop(code: number | null, signal: NodeJS.Signals | null): boolean {
  return code === 0 || signal === 'SIGTERM' || signal === 'SIGINT';
}

type Log = (line: string) => void;

/** The preparation's process: it exits once done, or stays while it hosts embedded services. */
interface Services {
  child: ChildProcess;
  hosting: boolean;
}

/** dist/ of the checkout: `npm start` compiles what changed there first (scripts/start.js). */
export async function launch(
  apps: AppName[],
  root = resolve(__dirname, '../../../..').replace(/\/dist$/, ''),
): Promise<void> {
  const log: Log = (line) => console.log(`[lifeline] ${line}`);
  const preparing = spawn(process.execPath, [join(root, 'dist/apps/launcher/src/prepare.js')], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  const prepared = await new Promise<Prepared>((done) => {
    preparing.once('message', (message) => done(message as Prepared));
    // A preparation that fails has said why (one sentence) and exits EXIT_CONFIG or 1; so does the launcher.
    preparing.once('exit', (code) => process.exit(code || 1));
  });
  preparing.removeAllListeners('exit');
  // A preparation that hosts nothing exits when the channel closes.
  if (!prepared.hosting) preparing.disconnect();
  const supervisor = new Supervisor(root, prepared.env, log, { child: preparing, hosting: prepared.hosting });
  for (const app of apps) supervisor.start(app);
  process.on('SIGINT', () => supervisor.stopAll('SIGINT'));
  process.on('SIGTERM', () => supervisor.stopAll('SIGTERM'));
  // A signal the services' process received: it waits for the launcher to stop the apps first.
  preparing.on('message', (message) => supervisor.stopAll((message as { signal: string }).signal));
  if (prepared.hosting) preparing.on('exit', () => supervisor.stopAll('the embedded services stopped'));
  if (process.ppid !== 1) watchParent(() => supervisor.stopAll('the process that started it is gone'));
}

/** The apps run from dist/ (compiled first by `npm start` in a development checkout), with NODE_FLAGS. */
function appCommand(root: string, app: AppName): string[] {
  return [...NODE_FLAGS, join(root, 'dist', `apps/${app}/src/main.js`)];
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
    private readonly services: Services,
  ) {}

  start(app: AppName): void {
    const began = Date.now();
    // The IPC channel tells the child when the launcher is gone, whatever killed it.
    const child = spawn(process.execPath, appCommand(this.root, app), {
      cwd: this.root,
      env: this.env,
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
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
      for (const child of [...this.children.values(), this.services.child]) child.kill('SIGKILL');
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

  /** Once every app is gone, the embedded services stop and so does the launcher. */
  private finish(): void {
    if (this.children.size > 0) return;
    const { child, hosting } = this.services;
    if (!hosting || child.exitCode !== null || child.signalCode !== null || !child.connected) return process.exit();
    child.once('exit', () => process.exit());
    child.send('stop');
  }
}
