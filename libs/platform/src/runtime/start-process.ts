// The start of the api and the worker when run alone (`npm run start:prod:api`, a container) or by
// the launcher: .env read, settings checked, Redis reached, pending migrations run (or waited for,
// under the advisory lock), then the process runs until a signal stops it, and gives back the memory
// its start-up grew once it is quiet (memory-at-rest.ts). A failure here is one sentence and exit code
// EXIT_CONFIG (78) when retrying cannot help.
import { AppConfig, ConfigError, loadConfig, loadDotEnv, warnAboutTestOnlySettings } from '../config/config';
import { migrate } from '../database/migrate';
import type { Migration } from '../database/migration-state';
import { EXIT_CONFIG, stopOnSignals } from './lifecycle';
import { giveBackMemoryAtRest } from './memory-at-rest';
import { ensureRedisReachable } from './redis-reachable';
import { databaseUnreachable } from './unreachable';

export interface Running {
  stop(): Promise<void>;
}

export function startProcess(
  name: string,
  migrations: Migration[],
  run: (config: AppConfig) => Promise<Running>,
): void {
  let config: AppConfig | null = null;
  const main = async () => {
    loadDotEnv();
    config = loadConfig(process.env);
    warnAboutTestOnlySettings(config);
    await ensureRedisReachable(config);
    const ran = await migrate(config, migrations, (line) => console.log(line));
    if (ran.length) console.log(`${name}: migrations run: ${ran.join(', ')}`);
    const running = await run(config);
    stopOnSignals(name, () => running.stop());
    giveBackMemoryAtRest();
  };
  main().catch((error: unknown) => {
    const known = error instanceof ConfigError ? error : config ? databaseUnreachable(error, config.databaseUrl) : null;
    console.error(known ? known.message : error);
    process.exit(known ? EXIT_CONFIG : 1);
  });
}
