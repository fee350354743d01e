// The worker's side of the outbox: the relay, started once every module has registered its handler,
// and the retention of relayed happenings (OUTBOX_RETENTION_DAYS, docs/configuration.md#settings).
import { Inject, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { AppConfig, CONFIG, retainedSince, SweepRegistry } from '@app/platform';
import { outboxKeptMs, OutboxRelayService } from './outbox-relay.service';

@Injectable()
export class OutboxWorkerStartup implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly relay: OutboxRelayService,
    private readonly sweeps: SweepRegistry,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.sweeps.register('outbox-retention', () =>
      this.relay.deleteRelayedBefore(retainedSince(outboxKeptMs(this.config))),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }
}

@Module({ providers: [OutboxWorkerStartup] })
export class OutboxWorkerModule {}
