// Every tool of the tool door (decisions.md section 10 names them), built once with their services.
import { Injectable } from '@nestjs/common';
import { IngestService, TimelineRepository } from '@app/events';
import { MessagesService } from '@app/messaging';
import { PeopleReadRepository } from '@app/people';
import { eventTools } from './events.tools';
import { messageTools } from './messages.tools';
import { peopleTools } from './people.tools';
import type { ToolDefinition } from './tool';

@Injectable()
export class ToolsService {
  readonly all: ToolDefinition[];

  constructor(ingest: IngestService, messages: MessagesService, read: PeopleReadRepository, timeline: TimelineRepository) {
    this.all = [...eventTools(ingest), ...peopleTools(read, timeline), ...messageTools(messages)] as unknown as ToolDefinition[];
  }
}
