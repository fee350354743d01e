// Every tool of the tool door (docs/mcp.md names them), built once with their services.
import { Injectable } from '@nestjs/common';
import { AutomationsService } from '@app/automations';
import { ChartsService, FunnelsService, IngestService, SegmentsService, TimelineService } from '@app/events';
import { BroadcastsService, MessagesService } from '@app/messaging';
import { ListsService, PeopleQueryService, PersonDataService } from '@app/people';
import { RateLimits } from '@app/platform';
import { automationTools } from './automations.tools';
import { broadcastTools } from './broadcasts.tools';
import { chartTools } from './charts.tools';
import { eventTools } from './events.tools';
import { funnelTools } from './funnels.tools';
import { listTools } from './lists.tools';
import { messageTools } from './messages.tools';
import { peopleTools } from './people.tools';
import { segmentTools } from './segments.tools';
import type { ToolDefinition } from './tool';

@Injectable()
export class ToolsService {
  readonly all: ToolDefinition[];

  constructor(
    ingest: IngestService,
    messages: MessagesService,
    people: PeopleQueryService,
    timeline: TimelineService,
    lists: ListsService,
    charts: ChartsService,
    funnels: FunnelsService,
    automations: AutomationsService,
    personData: PersonDataService,
    limits: RateLimits,
    segments: SegmentsService,
    broadcasts: BroadcastsService,
  ) {
    this.all = [
      ...eventTools(ingest),
      ...listTools(ingest),
      ...peopleTools(people, timeline, lists, personData),
      ...messageTools(messages, limits),
      ...chartTools(charts),
      ...funnelTools(funnels),
      ...automationTools(automations),
      ...segmentTools(segments),
      ...broadcastTools(broadcasts),
    ] as unknown as ToolDefinition[];
  }
}
