// `npm start`: resolves the database and Redis (embedded fallbacks of decisions.md section 1), runs
// migrations once, then runs the api and the worker as two processes and stops both on Ctrl-C.
import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { migrate } from '../database/database';
import { developmentAppSecret, resolveDatabase, resolveRedis, Resolved } from './embedded';

type AppName = 'api' | 'worker';

export async function launch(apps: AppName[], root = resolve(__dirname, '../../../..')): Promise<void> {
  const dataDir = join(root, '.data');
  const log = (line: string) => console.log(`[lifeline] ${line}`);
  const started: Resolved[] = [];
  const stopEmbedded = async () => {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
  };
  let env: NodeJS.ProcessEnv;
  try {
    const database = await resolveDatabase(process.env, dataDir, log);
    started.push(database);
    const redis = await resolveRedis(process.env, dataDir, log);
    started.push(redis);
    const production = process.env.NODE_ENV === 'production';
    const appSecret = process.env.APP_SECRET || (production ? undefined : developmentAppSecret(dataDir));
    const config = loadConfig(process.env, { databaseUrl: database.url, redisUrl: redis.url, appSecret });
    const ran = await migrate(config);
    if (ran.length) log(`migrations run: ${ran.join(', ')}`);
    env = {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      APP_SECRET: config.appSecret,
      DATABASE_POOL_SIZE: String(config.databasePoolSize),
    };
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    await stopEmbedded();
    process.exit(1);
  }

  const children = new Map<AppName, ChildProcess>();
  let stopping = false;
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const child of children.values()) if (child.exitCode === null) child.kill(signal);
  };
  for (const app of apps) {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(root, `apps/${app}/src/main.ts`)], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
    children.set(app, child);
    child.on('exit', (code) => {
      children.delete(app);
      if (!stopping) {
        log(`${app} exited (${code ?? 'signal'}); stopping the rest`);
        process.exitCode = code || 1;
        stopAll('SIGTERM');
      }
      if (children.size === 0) void stopEmbedded().then(() => process.exit());
    });
  }
  process.on('SIGINT', () => stopAll('SIGINT'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
}
