import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SweepRegistry } from '@app/core';
import { PeopleModule } from '@app/people';
import { EventEntity, EventNameEntity, HeartbeatEntity } from './event.entity';
import { HeartbeatService } from './heartbeat.service';
import { IngestService } from './ingest/ingest.service';
import { IngestRepository } from './ingest/ingest.repository';
import { TimelineRepository } from './timeline.repository';
import { TimelineReadRepository } from './timeline-read.repository';
import { TimelineService } from './timeline.service';
import { ChartsRepository } from './charts/charts.repository';
import { ChartsService } from './charts/charts.service';

const DAY_MS = 24 * 3600 * 1000;

/** Shared by both apps: ingesting, the timeline, and the sweeps that keep it (decisions.md section 5). */
@Module({
  imports: [PeopleModule, TypeOrmModule.forFeature([EventEntity, EventNameEntity, HeartbeatEntity])],
  providers: [TimelineRepository, TimelineReadRepository, TimelineService, ChartsRepository, ChartsService, IngestRepository, IngestService, HeartbeatService],
  exports: [PeopleModule, TimelineRepository, TimelineService, ChartsService, IngestService, HeartbeatService],
})
export class EventsModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly timeline: TimelineRepository,
  ) {}

  onModuleInit(): void {
    this.sweeps.register('expired-events', () => this.timeline.deleteExpired(new Date()));
    this.sweeps.register('idempotency-keys', () => this.timeline.deleteOldIdempotencyKeys(new Date(Date.now() - 30 * DAY_MS)));
    this.sweeps.register('heartbeat', () => this.timeline.deleteOldHeartbeat(new Date(Date.now() - 8 * DAY_MS)));
  }
}
