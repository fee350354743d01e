// Every tool of the tool door (decisions.md section 10 names them), built once with their services.
import { Injectable } from '@nestjs/common';
import { ChartsService, IngestService, TimelineService } from '@app/events';
import { MessagesService } from '@app/messaging';
import { ListsService, PeopleQueryService } from '@app/people';
import { chartTools } from './charts.tools';
import { eventTools } from './events.tools';
import { messageTools } from './messages.tools';
import { peopleTools } from './people.tools';
import type { ToolDefinition } from './tool';

@Injectable()
export class ToolsService {
  readonly all: ToolDefinition[];

  constructor(ingest: IngestService, messages: MessagesService, people: PeopleQueryService, timeline: TimelineService, lists: ListsService, charts: ChartsService) {
    this.all = [...eventTools(ingest), ...peopleTools(people, timeline, lists), ...messageTools(messages), ...chartTools(charts)] as unknown as ToolDefinition[];
  }
}
