// Schema changes under one PostgreSQL advisory lock: any number of api, worker, CLI and
// `npm run migrate` processes starting at once on one database migrate it exactly once; the others
// wait on the lock, then find nothing pending. The lock is held by its own connection, so a process
// that dies mid-way releases it with that connection.
import { DataSource, DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { dataSourceOptions, ensureDatabase } from './database';
import { connectionConfig, TargetedClient } from './targeted-client';
import { appliedMigrations, Migration, MigrationState, migrationStates, splitRecords } from './migration-state';

type Settings = Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'>;
type Log = (line: string) => void;

/** pg_advisory_lock key of the migrations: "lifeline" in ASCII, fits a bigint. */
export const MIGRATION_LOCK_KEY = '7811666963486590565';

/** The migrations' data source: one connection, to the host its list chooses (the primary, under read-write). */
function oneConnection(settings: Settings): DataSourceOptions {
  const options = dataSourceOptions(settings);
  return { ...options, extra: { ...options.extra, max: 1 } } as DataSourceOptions;
}

async function underLock<T>(
  settings: Settings,
  migrations: Migration[],
  log: Log,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  await ensureDatabase(settings.databaseUrl);
  const lock = new TargetedClient(connectionConfig(settings.databaseUrl));
  await lock.connect();
  try {
    const taken = await lock.query('SELECT pg_try_advisory_lock($1::bigint) AS taken', [MIGRATION_LOCK_KEY]);
    if (!taken.rows[0].taken) {
      log('Another process is migrating this database: waiting for it to finish.');
      await lock.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    }
    const dataSource = new DataSource({ ...oneConnection(settings), migrations });
    await dataSource.initialize();
    try {
      await recordSplits(dataSource, migrations);
      return await work(dataSource);
    } finally {
      await dataSource.destroy();
      await lock.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await lock.end().catch(() => undefined);
  }
}

/** Records migrations split out of ones this database ran (splitRecords), in one transaction. */
async function recordSplits(dataSource: DataSource, migrations: Migration[]): Promise<void> {
  const { insert, remove } = splitRecords(migrations, await appliedMigrations(dataSource));
  if (!insert.length && !remove.length) return;
  await dataSource.transaction(async (manager) => {
    for (const row of insert)
      await manager.query('INSERT INTO migrations (timestamp, name) VALUES ($1, $2)', [row.timestamp, row.name]);
    if (remove.length) await manager.query('DELETE FROM migrations WHERE name = ANY($1)', [remove]);
  });
}

/**
 * Creates the database if needed and brings its schema up to date with every lib's migrations; returns those it ran.
 */
export async function migrate(
  settings: Settings,
  migrations: Migration[],
  log: Log = () => undefined,
): Promise<string[]> {
  return underLock(settings, migrations, log, async (dataSource) =>
    (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name),
  );
}

/** Undoes the newest migration that has run; returns its name (null when none has run). */
export async function revertMigration(
  settings: Settings,
  migrations: Migration[],
  log: Log = () => undefined,
): Promise<string | null> {
  return underLock(settings, migrations, log, async (dataSource) => {
    const applied = await appliedMigrations(dataSource);
    if (!applied.length) return null;
    await dataSource.undoLastMigration({ transaction: 'each' });
    return applied[applied.length - 1];
  });
}

/** The state of every migration, read without the lock. */
export async function showMigrations(settings: Settings, migrations: Migration[]): Promise<MigrationState[]> {
  await ensureDatabase(settings.databaseUrl);
  const dataSource = new DataSource(oneConnection(settings));
  await dataSource.initialize();
  try {
    return migrationStates(migrations, await appliedMigrations(dataSource));
  } finally {
    await dataSource.destroy();
  }
}
