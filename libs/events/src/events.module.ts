import { Module, OnModuleInit } from '@nestjs/common';
import { DAY_MS, PersonDataParticipants, retainedSince, SweepRegistry } from '@app/platform';
import { MergeParticipants, PeopleModule } from '@app/people';
import { HeartbeatService } from './heartbeat.service';
import { EventsDataParticipant } from './person-data.participant';
import { IngestService } from './ingest/ingest.service';
import { IngestRepository } from './ingest/ingest.repository';
import { TimelineRepository } from './timeline.repository';
import { TimelineReadRepository } from './timeline-read.repository';
import { TimelineService } from './timeline.service';
import { ChartRollups, ChartsRepository } from './charts/charts.repository';
import { ChartsService } from './charts/charts.service';
import { FunnelsRepository } from './charts/funnels.repository';
import { FunnelsService } from './charts/funnels.service';
import { EventsTallyRepository } from './overview/events-tally.repository';
import { OverviewService } from './overview/overview.service';
import { PartitionUpkeep } from './partitions/partition-upkeep';
import { UnsubscribeService } from './consent/unsubscribe.service';
import { ConfirmationService } from './consent/confirmation.service';
import { SegmentsRepository } from './segments/segments.repository';
import { SegmentsService } from './segments/segments.service';
import { SegmentMembership } from './segments/membership.service';
import { dropMembers } from './segments/membership.repository';
import { ExpirySweep } from './segments/fill/expiry-sweep';
import { FillRepository } from './segments/fill/fill.repository';

/** Idempotency keys: a repeat within this answers the first answer. */
export const IDEMPOTENCY_KEYS_KEPT_MS = 30 * DAY_MS;
/** Heartbeat minutes: the view shows a week, the extra day covers time zones. */
const HEARTBEAT_KEPT_MS = 8 * DAY_MS;

/** Shared by both apps: ingesting, the timeline, and the sweeps that keep it (docs/rest.md#events). */
@Module({
  imports: [PeopleModule],
  providers: [
    TimelineRepository,
    TimelineReadRepository,
    TimelineService,
    ChartsRepository,
    ChartRollups,
    ChartsService,
    FunnelsRepository,
    FunnelsService,
    EventsTallyRepository,
    OverviewService,
    IngestRepository,
    IngestService,
    HeartbeatService,
    EventsDataParticipant,
    PartitionUpkeep,
    UnsubscribeService,
    ConfirmationService,
    SegmentMembership,
    FillRepository,
    ExpirySweep,
    SegmentsRepository,
    SegmentsService,
  ],
  exports: [
    PeopleModule,
    OverviewService,
    TimelineRepository,
    TimelineService,
    ChartsService,
    FunnelsService,
    ChartRollups,
    IngestService,
    HeartbeatService,
    UnsubscribeService,
    ConfirmationService,
    SegmentMembership,
    SegmentsService,
  ],
})
export class EventsModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly timeline: TimelineRepository,
    private readonly merges: MergeParticipants,
    private readonly personData: PersonDataParticipants,
    private readonly eventsData: EventsDataParticipant,
    private readonly partitions: PartitionUpkeep,
    private readonly rollups: ChartRollups,
    private readonly confirmations: ConfirmationService,
    private readonly expiry: ExpirySweep,
  ) {}

  onModuleInit(): void {
    this.merges.register(this.timeline);
    // The absorbed leave their segments quietly; the write that merged recomputes the survivor's.
    this.merges.register({
      name: 'segments',
      movePeople: (m, merge) => dropMembers(m, merge.workspaceId, merge.absorbedIds).then(() => undefined),
    });
    this.personData.register(this.eventsData);
    // Before the expiry: the rows it deletes have then left the rollups by the fold, not by the delete's trigger.
    this.sweeps.register('chart-rollups', () => this.rollups.fold());
    this.sweeps.register('expired-events', () => this.expiry.sweep());
    this.sweeps.register('events-partitions', () => this.partitions.sweep());
    this.sweeps.register('idempotency-keys', () =>
      this.timeline.deleteOldIdempotencyKeys(retainedSince(IDEMPOTENCY_KEYS_KEPT_MS)),
    );
    this.sweeps.register('heartbeat', () => this.timeline.deleteOldHeartbeat(retainedSince(HEARTBEAT_KEPT_MS)));
    this.sweeps.register('unconfirmed-subscriptions', () => this.confirmations.removeUnconfirmed());
  }
}
