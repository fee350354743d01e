// POST and GET /api/v1/events (interface.md "Events endpoint", decisions.md section 3).
import { Body, Controller, Get, HttpCode, OnModuleInit, Post, UseGuards } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { Auth, AuthContext, KeyRecheckedByWrite, SecretKeyGuard, WorkspacesService } from '@app/workspaces';
import { BatchAnswer, CountHeartbeat, doorSpecOf, HotDoors, itemAnswer, RateLimit, SERVER_BODY_LIMIT } from '@app/edge';
import { Refusal } from '@app/platform';
import { itemAction, parseBody } from '../domain';
import { IngestService } from '../ingest/ingest.service';
import { describeEventsEndpoint } from './events-description';

const PATH = 'api/v1/events';

@Controller(PATH)
export class EventsController implements OnModuleInit {
  constructor(
    private readonly ingest: IngestService,
    private readonly workspaces: WorkspacesService,
    private readonly hotDoors: HotDoors,
    private readonly guard: SecretKeyGuard,
    private readonly reflector: Reflector,
  ) {}

  /**
   * issue 18: posts are answered by a hot door: the same guard, marks and handler as the route below
   * (read from its decorators), without Express and Nest's per-request machinery.
   */
  onModuleInit() {
    this.hotDoors.add({
      path: `/${PATH}`,
      bodyLimit: SERVER_BODY_LIMIT,
      status: this.reflector.get<number>(HTTP_CODE_METADATA, EventsController.prototype.post),
      ...doorSpecOf(this.reflector, EventsController.prototype.post, EventsController),
      authenticate: (req) => this.guard.authenticate(req, EventsController.prototype.post),
      handle: (req) => this.post(req.auth!, req.body),
    });
  }

  @Get()
  describe() {
    return describeEventsEndpoint();
  }

  @Post()
  @HttpCode(200)
  @UseGuards(SecretKeyGuard)
  @KeyRecheckedByWrite()
  @RateLimit('server')
  @CountHeartbeat({ action: (req) => itemAction(req.body), origin: () => 'server' })
  async post(@Auth() auth: AuthContext, @Body() body: unknown) {
    const parsed = parseBody(body);
    if (parsed instanceof Refusal) {
      await auth.recheck?.verify(); // nothing is written: a key gone out of use is refused as such
      throw parsed;
    }
    const workspace = await this.workspaces.get(auth.workspaceId);
    const options = { publicDoor: false, recheck: auth.recheck };
    if (!parsed.batch) return itemAnswer((await this.ingest.ingest(workspace, [parsed.item], options))[0]);
    return new BatchAnswer(await this.ingest.ingest(workspace, parsed.items, options), parsed.items.map(itemAction));
  }
}
