// The worker's side of the outbox: the relay, started once every module has registered its handler,
// and the retention of relayed happenings.
import { Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { retainedSince, SweepRegistry } from '@app/platform';
import { OUTBOX_KEPT_MS, OutboxRelayService } from './outbox-relay.service';

@Injectable()
export class OutboxWorkerStartup implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly relay: OutboxRelayService,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    this.sweeps.register('outbox-retention', () => this.relay.deleteRelayedBefore(retainedSince(OUTBOX_KEPT_MS)));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
  }
}

@Module({ providers: [OutboxWorkerStartup] })
export class OutboxWorkerModule {}
