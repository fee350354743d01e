// The real worker as a child process of the test (the way production runs it), so a test can kill it
// with SIGKILL mid-work and see what the next worker makes of what it left.
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { AppConfig } from '@app/platform';

export function spawnWorker(
  config: AppConfig,
  env: Record<string, string> = {},
): { child: ChildProcess; exited: Promise<unknown> } {
  const root = join(__dirname, '../..');
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'apps/worker/src/main.ts')], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      APP_SECRET: config.appSecret,
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      ...(config.redisClusterNodes
        ? { REDIS_CLUSTER_NODES: config.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',') }
        : {}),
      UNSAFE_ALLOW_PRIVATE_TARGETS: String(config.allowPrivateTargets),
      LOG_LEVEL: 'error',
      ...env,
    },
  });
  return { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
}
