// The operator CLI's surface of core (apps/api/src/cli.ts; issue 16 item 8): settings, refusals, and
// the same workspaces and members services the apps use, on one pg connection. It loads no Nest,
// TypeORM, GraphQL or Redis (index.ts pulls in ~2,000 modules), which is why the CLI imports this
// file rather than the index; test/runtime.e2e-spec.ts checks what a call loads.
import type { Client } from 'pg';
import type { AppConfig } from './config/config';
import { appliedMigrations, migrationStates } from './database/migration-state';
import { pgSql } from './database/sql';
import { MembersService } from './workspaces/members.service';
import { WorkspacesRepository } from './workspaces/workspaces.repository';
import { WorkspacesService } from './workspaces/workspaces.service';

export { ConfigError, loadConfig, loadDotEnv } from './config/config';
export { Refusal } from './errors/refusal';
export { commandDatabaseUrl, developmentAppSecret } from './runtime/embedded';
export { databaseUnreachable } from './runtime/unreachable';
export { SHELL_ACTOR } from './workspaces/members.service';
export { MembersService, WorkspacesService };

export interface OperatorSession {
  workspaces: WorkspacesService;
  members: MembersService;
  close(): Promise<void>;
}

type Settings = Pick<AppConfig, 'databaseUrl' | 'databasePoolSize' | 'baseUrl'>;

async function connect(databaseUrl: string): Promise<Client> {
  const { Client } = await import('pg'); // here, not at the top: `--help` needs no database
  const client = new Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** migrate.ts (and TypeORM with it) is loaded only when there is something to migrate. */
async function migrate(settings: Settings): Promise<void> {
  const { migrate: run } = await import('./database/migrate');
  await run(settings);
}

/**
 * One connection with the schema up to date, as the api and worker have at start: a database that
 * is missing is created and one with a migration pending is migrated (under the advisory lock).
 */
export async function openOperatorSession(settings: Settings): Promise<OperatorSession> {
  let client: Client;
  try {
    client = await connect(settings.databaseUrl);
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error; // 3D000: no such database yet
    await migrate(settings);
    client = await connect(settings.databaseUrl);
  }
  try {
    const sql = pgSql(client);
    if (migrationStates(await appliedMigrations(sql)).some((m) => !m.applied)) await migrate(settings);
    const repository = new WorkspacesRepository(sql);
    return { workspaces: new WorkspacesService(repository, settings), members: new MembersService(repository), close: () => client.end() };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}
