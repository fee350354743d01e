// POST and GET /api/v1/events (interface.md "Events endpoint", decisions.md section 3).
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SecretKeyOptions, WorkspacesService } from '@app/workspaces';
import { BatchAnswer, bySecretKey, door, DoorRequest, DoorRoute, Doors, itemAnswer, OpenDoor, SERVER_BODY_LIMIT } from '@app/edge';
import { itemAction, parseBody } from '../domain';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { describeEventsEndpoint } from './events-description';

interface EventsDoorServices {
  ingest: IngestService;
  workspaces: WorkspacesService;
  heartbeat: HeartbeatService;
}

/** The post's writes check its key (keyRecheckCte), so a key this process has seen live is not looked up (issue 18). */
const RECHECKED_BY_WRITE: SecretKeyOptions = { recheckedByWrite: true };

/** POST /api/v1/events: one event object, or a batch, from servers; answered by the hot door (issue 18). */
export const EVENTS_DOOR = door({
  method: 'POST',
  path: '/api/v1/events',
  status: 200,
  bodyLimit: SERVER_BODY_LIMIT,
  hot: true,
  eventItems: 'server',
  authenticate: (req, { workspaces }: EventsDoorServices) => workspaces.authenticateRequest(req, RECHECKED_BY_WRITE),
  rateLimit: { limit: 'server', key: bySecretKey },
  heartbeat: { action: (req) => itemAction(req.body), origin: () => 'server' },
  parse: (req) => parseBody(req.body),
  async handle(parsed, req, { ingest, workspaces }) {
    const auth = req.auth!;
    const workspace = await workspaces.get(auth.workspaceId);
    const options = { publicDoor: false, recheck: auth.recheck };
    if (!parsed.batch) return itemAnswer((await ingest.ingest(workspace, [parsed.item], options))[0]);
    return new BatchAnswer(await ingest.ingest(workspace, parsed.items, options), parsed.items.map(itemAction));
  },
});

@Controller()
export class EventsController {
  private readonly events: OpenDoor<EventsDoorServices>;

  constructor(doors: Doors, ingest: IngestService, workspaces: WorkspacesService, heartbeat: HeartbeatService) {
    this.events = doors.open(EVENTS_DOOR, { ingest, workspaces, heartbeat });
  }

  @Get(EVENTS_DOOR.path)
  describe() {
    return describeEventsEndpoint();
  }

  @DoorRoute(EVENTS_DOOR)
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.events.serve(req, res);
  }
}
