import { DynamicModule, Module } from '@nestjs/common';
import { AutomationsWorkerModule } from '@app/automations';
import { EdgeModule } from '@app/edge';
import { EventsModule, SegmentsWorkerModule } from '@app/events';
import { IntegrationsWorkerModule } from '@app/integrations';
import { MessagingWorkerModule } from '@app/messaging';
import { OutboxModule, OutboxWorkerModule } from '@app/outbox';
import { AppConfig, loggerModule, PlatformModule, SweepsWorkerModule, WorkerHeartbeat } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { WebhooksWorkerModule } from '@app/webhooks';
import { WorkspacesModule } from '@app/workspaces';

/** The worker: every lib's processors, sweeps and relay handlers; wiring only. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        loggerModule(config, 'worker'),
        // the worker serves no read request, so it never opens the read replica's pool
        PlatformModule.forRoot({ ...config, databaseReadUrl: null }, MIGRATIONS),
        OutboxModule,
        WorkspacesModule,
        EdgeModule,
        SweepsWorkerModule,
        OutboxWorkerModule,
        EventsModule,
        SegmentsWorkerModule,
        MessagingWorkerModule,
        WebhooksWorkerModule,
        IntegrationsWorkerModule,
        AutomationsWorkerModule,
      ],
      providers: [WorkerHeartbeat],
    };
  }
}
