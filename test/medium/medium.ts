// The middle tier: repositories and services of every context against the real PostgreSQL (a database
// per file, cloned from the migrated template) and Redis, with no HTTP and no worker loops. Nest builds
// the graph so the registries (merge participants, sweeps, outbox handlers) are filled exactly as in the
// apps: each lib's plain module, shared by both apps, never its -api (HTTP, GraphQL) or -worker (loops) one.
import { Module, type INestApplicationContext, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AutomationsModule } from '@app/automations';
import { EdgeModule } from '@app/edge';
import { IntegrationsModule } from '@app/integrations';
import { OutboxModule } from '@app/outbox';
import { AppConfig, Clock, PlatformModule } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { WorkspacesModule } from '@app/workspaces';
import { EventsModule } from '@app/events';
import { MessagingModule } from '@app/messaging';
import { WebhooksModule } from '@app/webhooks';
import { Factories } from '../factories';
import { dropDatabase, testConfig } from '../harness';
import { cloneTemplate } from '../support/template';

export interface Medium {
  config: AppConfig;
  db: DataSource;
  make: Factories;
  get<T>(type: Type<T> | string | symbol): T;
  close(): Promise<void>;
}

// People come with EventsModule; mcp has only an api module (its tool door is HTTP).
@Module({ imports: [EventsModule, MessagingModule, WebhooksModule, AutomationsModule, IntegrationsModule] })
class ContextsModule {}

/** `clock`: what the graph's timing code reads and waits on (a ManualClock the test moves), the real one by default. */
export async function startMedium(options: { clock?: Clock } = {}): Promise<Medium> {
  const { config, database } = await testConfig();
  await cloneTemplate(database);
  const context: INestApplicationContext = await NestFactory.createApplicationContext(
    {
      module: class MediumModule {},
      imports: [
        PlatformModule.forRoot(config, MIGRATIONS, options.clock),
        OutboxModule,
        WorkspacesModule,
        EdgeModule,
        ContextsModule,
      ],
    },
    { logger: ['error'] },
  );
  await context.init();
  const db = context.get(DataSource);
  const get = <T>(type: Type<T> | string | symbol): T => context.get(type as never, { strict: false });
  return {
    config,
    db,
    make: new Factories(db, get),
    get,
    async close() {
      await context.close();
      await dropDatabase(database);
    },
  };
}

/** The file's middle tier, started before its tests and closed after; the handle is filled in beforeAll. */
export function useMedium(options: { clock?: Clock } = {}): Medium {
  const handle = {} as Medium;
  beforeAll(async () => {
    Object.assign(handle, await startMedium(options));
  });
  afterAll(() => handle.close?.());
  return handle;
}
