// `npm run migrate`: brings the schema up to date (`-- --revert` undoes the newest migration,
// `-- --show` lists them) under the advisory lock of libs/platform/src/database/migrate.ts. The api and
// the worker also migrate at start under the same lock; this is for deploys that do it first, once.
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import {
  commandDatabaseUrl,
  ConfigError,
  databaseUnreachable,
  loadDotEnv,
  migrate,
  revertMigration,
  showMigrations,
} from '@app/platform';
import { MIGRATIONS } from '@app/schema';

const USAGE =
  'Usage: npm run migrate [-- --revert | -- --show]\n  (no option)  runs every pending migration\n  --revert   ' +
  '  undoes the newest migration that has run\n  --show       lists every migration, [x] when it has run\n';

async function main(): Promise<number> {
  let url = '';
  try {
    const { values } = parseArgs({
      options: { revert: { type: 'boolean' }, show: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    loadDotEnv();
    const root = resolve(__dirname, '../../..').replace(/\/dist$/, '');
    url = (await commandDatabaseUrl(process.env, join(root, '.data'))) ?? 'postgres://postgres@127.0.0.1:5432/lifeline';
    const settings = { databaseUrl: url, databasePoolSize: 1 };
    const log = (line: string) => console.log(line);
    if (values.show) {
      for (const m of await showMigrations(settings, MIGRATIONS)) console.log(`[${m.applied ? 'x' : ' '}] ${m.name}`);
    } else if (values.revert) {
      const reverted = await revertMigration(settings, MIGRATIONS, log);
      console.log(reverted ? `Reverted ${reverted}.` : 'No migration has run: nothing to revert.');
    } else {
      const ran = await migrate(settings, MIGRATIONS, log);
      console.log(ran.length ? `Ran ${ran.length} migration(s): ${ran.join(', ')}.` : 'The database is up to date.');
    }
    return 0;
  } catch (error) {
    const unreachable = url ? databaseUnreachable(error, url) : null;
    const known =
      unreachable ??
      (error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
        ? (error as Error)
        : null);
    console.error(known ? known.message : error);
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) process.stderr.write(USAGE);
    return 1;
  }
}

if (require.main === module) void main().then((code) => process.exit(code));
