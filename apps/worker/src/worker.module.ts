import { BullModule, InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { DynamicModule, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AutomationsWorkerModule } from '@app/automations';
import { AppConfig, loggerModule, PlatformModule, QUEUES, retainedSince, SCHEDULES, SweepRegistry, WorkerHeartbeat } from '@app/platform';
import { EdgeModule } from '@app/edge';
import { OutboxModule, OutboxRelayService } from '@app/outbox';
import { MIGRATIONS } from '@app/schema';
import { WorkspacesModule } from '@app/workspaces';
import { EventsModule } from '@app/events';
import { MessagingWorkerModule } from '@app/messaging';
import { WebhooksWorkerModule } from '@app/webhooks';
import { IntegrationsWorkerModule } from '@app/integrations';

@Processor(QUEUES.sweeps)
export class SweepsProcessor extends WorkerHost {
  constructor(private readonly sweeps: SweepRegistry) {
    super();
  }

  process(_job: Job): Promise<Record<string, number>> {
    return this.sweeps.runAll();
  }
}

/** Registers the repeatable sweep and starts the outbox relay once every module is ready. */
@Injectable()
export class WorkerStartup implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectQueue(QUEUES.sweeps) private readonly sweepsQueue: Queue,
    private readonly relay: OutboxRelayService,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    this.sweeps.register('outbox-retention', () => this.relay.deleteRelayedBefore(retainedSince('outbox')));
  }

  async onApplicationBootstrap(): Promise<void> {
    const { id, everyMs, job } = SCHEDULES.sweepEveryMinute;
    await this.sweepsQueue.upsertJobScheduler(id, { every: everyMs }, { name: job.name });
    await this.relay.start();
  }
}

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        loggerModule(config, 'worker'),
        PlatformModule.forRoot(config, MIGRATIONS),
        OutboxModule,
        WorkspacesModule,
        EdgeModule,
        EventsModule,
        MessagingWorkerModule,
        WebhooksWorkerModule,
        IntegrationsWorkerModule,
        AutomationsWorkerModule,
        BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
      ],
      providers: [SweepsProcessor, WorkerStartup, WorkerHeartbeat],
    };
  }
}
