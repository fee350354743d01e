// TypeORM on PostgreSQL: schema changes only through migrations, never synchronize.
import { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { Outage } from '../runtime/outage';
import type { Clock } from '../time/clock';
import { connectionConfig, TargetedClient } from './targeted-client';
import { DatabaseLimits, limitedPoolOptions, WatchedClient } from './time-limits';

/**
 * The apps' pool; without the time limits (the migrations' own data sources), statements run as long as they need.
 * `outage` is the server's when it is not the primary (the read replica's, read-database.ts); `clock` times its watch.
 */
export function dataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize'> & Partial<DatabaseLimits>,
  outage?: Outage,
  clock?: Clock,
): DataSourceOptions {
  const limits = config.databaseConnectTimeoutMs ? limitedPoolOptions(config as DatabaseLimits, outage, clock) : {};
  // TypeORM and pg read one host: the first; the client tries the others (targeted-client.ts)
  const { connectionString, databaseHosts } = connectionConfig(config.databaseUrl);
  return {
    type: 'postgres',
    url: connectionString,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: config.databasePoolSize, idleTimeoutMillis: 30_000, Client: WatchedClient, databaseHosts, ...limits },
  };
}

/**
 * Creates the database named in the URL when it is missing (PGlite has only its one database), on the host of its list
 * that target_session_attrs chooses.
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const { connectionString, databaseHosts } = connectionConfig(databaseUrl);
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  if (name === 'postgres') return;
  url.pathname = '/postgres';
  const client = new TargetedClient({ connectionString: url.toString(), databaseHosts });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        // created meanwhile by another process (42P04, or 23505 when both inserted at once)
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
