// POST and GET /api/v1/events (interface.md "Events endpoint", decisions.md section 3).
import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { Auth, AuthContext, BatchAnswer, CountHeartbeat, itemAnswer, RateLimit, Refusal, SecretKeyGuard, WorkspacesService } from '@app/core';
import { itemAction, parseBody } from '../domain';
import { IngestService } from '../ingest/ingest.service';
import { describeEventsEndpoint } from './events-description';

@Controller('api/v1/events')
export class EventsController {
  constructor(
    private readonly ingest: IngestService,
    private readonly workspaces: WorkspacesService,
  ) {}

  @Get()
  describe() {
    return describeEventsEndpoint();
  }

  @Post()
  @HttpCode(200)
  @UseGuards(SecretKeyGuard)
  @RateLimit('server')
  @CountHeartbeat({ action: (req) => itemAction(req.body), origin: () => 'server' })
  async post(@Auth() auth: AuthContext, @Body() body: unknown) {
    const parsed = parseBody(body);
    if (parsed instanceof Refusal) throw parsed;
    const workspace = await this.workspaces.get(auth.workspaceId);
    if (!parsed.batch) return itemAnswer((await this.ingest.ingest(workspace, [parsed.item], { publicDoor: false }))[0]);
    return new BatchAnswer(await this.ingest.ingest(workspace, parsed.items, { publicDoor: false }), parsed.items.map(itemAction));
  }
}
