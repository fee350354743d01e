// The operator CLI's entry of workspaces (apps/api/src/cli.ts): settings, refusals,
// and the same workspaces and members services the apps use, on one pg connection. It loads no Nest,
// TypeORM, GraphQL or Redis (an index pulls in ~2,000 modules), which is why the CLI imports this
// entry rather than the index; test/runtime.e2e-spec.ts checks what a call loads.
import type { Client } from 'pg';
import {
  appliedMigrations,
  type AppConfig,
  connectionConfig,
  type Migration,
  migrationStates,
  pgSql,
  TargetedClient,
} from '@app/platform/plain';
import { MembersService } from '../members.service';
import { WorkspacesRepository } from '../workspaces.repository';
import { WorkspacesService } from '../workspaces.service';

export {
  commandDatabaseUrl,
  ConfigError,
  databaseUnreachable,
  developmentAppSecret,
  loadConfig,
  loadDotEnv,
  Refusal,
} from '@app/platform/plain';
export { SHELL_ACTOR } from '../members.service';
export { MembersService, WorkspacesService };

export interface OperatorSession {
  workspaces: WorkspacesService;
  members: MembersService;
  close(): Promise<void>;
}

type Settings = Pick<AppConfig, 'databaseUrl' | 'databasePoolSize' | 'baseUrl'>;

async function connect(databaseUrl: string): Promise<Client> {
  // the host of the list that target_session_attrs chooses (docs/operations.md#failover)
  const client = new TargetedClient(connectionConfig(databaseUrl));
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** migrate.ts (and TypeORM with it) is loaded only when there is something to migrate. */
async function migrate(settings: Settings, migrations: Migration[]): Promise<void> {
  const { migrate: run } = await import('@app/platform');
  await run(settings, migrations);
}

/**
 * One connection with the schema up to date, as the api and worker have at start: a database that
 * is missing is created and one with a migration pending is migrated (under the advisory lock).
 */
export async function openOperatorSession(settings: Settings, migrations: Migration[]): Promise<OperatorSession> {
  let client: Client;
  try {
    client = await connect(settings.databaseUrl);
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error; // 3D000: no such database yet
    await migrate(settings, migrations);
    client = await connect(settings.databaseUrl);
  }
  try {
    const sql = pgSql(client);
    if (migrationStates(migrations, await appliedMigrations(sql)).some((m) => !m.applied))
      await migrate(settings, migrations);
    const repository = new WorkspacesRepository(sql);
    return {
      workspaces: new WorkspacesService(repository, settings),
      members: new MembersService(repository),
      close: () => client.end(),
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}
