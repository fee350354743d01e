export * from './domain';
export * from './timeline.repository';
export * from './timeline-read.repository';
export * from './timeline.service';
export * from './charts';
export * from './heartbeat.service';
export * from './ingest/ingest.service';
export * from './ingest/ingest-unit';
export * from './consent/unsubscribe.service';
export * from './consent/confirmation.service';
export { CONFIRMATION_REQUESTED } from './consent/subscription-record';
export { INGEST_LOAD, INGEST_WRITE, INGEST_WRITE_TOUCHES } from './ingest/ingest.repository';
export * from './events.module';
export * from './events-api.module';
export { EventsExportService } from './export/events-export.service';
export { ExportTally } from './export/export-tally';
export { parseExportRange } from './export/export-range';
export { personView, timelineEntryView } from './graphql/people.resolver';
export { PersonType, TimelineEntryType, ListType } from './graphql/people.types';
export * from './segments/domain/definition';
export { inputsOf, mayMove, type PersonChange, type SegmentInputs } from './segments/domain/inputs';
export { SegmentMembership, type RefreshOptions } from './segments/membership.service';
export {
  isSegmentsChanged,
  refreshMembers,
  segmentsCheckCte,
  type SegmentPlan,
} from './segments/membership.repository';
export { SegmentsWorkerModule } from './segments/fill/segments-worker.module';
export { PartitionUpkeep } from './partitions/partition-upkeep';
export { EventsDataParticipant } from './person-data.participant';
export * from './segments/segments.service';
export type { SegmentRow } from './segments/segments.repository';
