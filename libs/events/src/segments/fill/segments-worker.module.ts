// The worker's part of live segments (docs/graphql.md#segments): the fill of new and changed segments
// and the sweep of their day windows; the expiry's part is EventsModule's sweep (ExpirySweep).
import { Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EventsModule } from '../../events.module';
import { FillRepository } from './fill.repository';
import { SegmentFill } from './segment-fill';
import { WindowSweep } from './window-sweep';

@Module({ imports: [EventsModule], providers: [FillRepository, SegmentFill, WindowSweep] })
export class SegmentsWorkerModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly fill: SegmentFill,
    private readonly windows: WindowSweep,
  ) {}

  onApplicationBootstrap(): void {
    this.fill.start();
    this.windows.start();
  }

  /** Before the database closes: the chunk or sweep under way ends first. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.fill.stop(), this.windows.stop()]);
  }
}
