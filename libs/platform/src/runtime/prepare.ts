// The launcher's preparation (apps/launcher/src/prepare.ts), a child process of the launcher so the
// launcher itself loads none of it: resolves the database and Redis (embedded fallbacks of decisions.md
// section 1), checks the settings and runs the migrations once, then sends the apps' environment to the
// launcher over IPC. With nothing embedded it exits then; an embedded PGlite or redis-server lives in
// this process until the launcher, its apps stopped, says `stop` (or is gone).
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig, loadDotEnv } from '../config/config';
import { migrate } from '../database/migrate';
import type { Migration } from '../database/migration-state';
import { developmentAppSecret, resolveDatabase, resolveRedis, Resolved } from './embedded';
import { EXIT_CONFIG } from './lifecycle';
import { ensureRedisReachable } from './redis-reachable';
import { databaseUnreachable } from './unreachable';

/** What the preparation sends the launcher: the apps' environment, and whether it stays to host services. */
export interface Prepared {
  env: NodeJS.ProcessEnv;
  hosting: boolean;
}

type Log = (line: string) => void;

/** The embedded database and Redis this process started: stopped in reverse. */
class EmbeddedServices {
  private readonly started: Resolved[] = [];

  add(service: Resolved): Resolved {
    this.started.push(service);
    return service;
  }

  get any(): boolean {
    return this.started.some((s) => s.embedded);
  }

  async stop(): Promise<void> {
    for (const service of [...this.started].reverse()) {
      await Promise.race([service.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
    }
  }
}

/**
 * Resolves the database and Redis, checks the settings and runs the migrations once: the apps'
 * environment. A failure is one sentence and an exit (EXIT_CONFIG when retrying cannot help).
 */
async function prepare(
  root: string,
  migrations: Migration[],
  log: Log,
  embedded: EmbeddedServices,
): Promise<NodeJS.ProcessEnv> {
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

/**
 * The child's whole life: prepare, send {@link Prepared}, then exit when the launcher closes the channel,
 * or host the embedded services until the launcher says `stop` or is gone. A SIGTERM/SIGINT of its own
 * is passed to the launcher, which stops the apps first (they still need the database to finish their
 * work) and then this process.
 */
export function prepareForLaunch(
  migrations: Migration[],
  root = resolve(__dirname, '../../../..').replace(/\/dist$/, ''),
): void {
  loadDotEnv(root);
  const log: Log = (line) => console.log(`[lifeline] ${line}`);
  const embedded = new EmbeddedServices();
  // The launcher gone before the preparation is done (killed): what was started stops, nothing is sent.
  const abandoned = () => void embedded.stop().then(() => process.exit(1));
  process.on('disconnect', abandoned);
  void prepare(root, migrations, log, embedded).then((env) => {
    const hosting = embedded.any;
    const stop = () => void embedded.stop().then(() => process.exit(0));
    process.off('disconnect', abandoned);
    if (!process.connected) return abandoned();
    process.on('disconnect', hosting ? stop : () => process.exit(0));
    if (hosting) {
      process.on('message', (message) => message === 'stop' && stop());
      for (const signal of ['SIGTERM', 'SIGINT'] as const)
        process.on(signal, () => (process.connected ? process.send!({ signal }) : stop()));
    }
    process.send!({ env, hosting } satisfies Prepared);
  });
}
