// interface.md "Public website endpoints": POST {BASE_URL}/api/in/{public_key}/{subscribe|identify|event|support}
// straight from visitors' browsers, and the tag's script. These endpoints add people and never read
// anything: answers carry ok and status only (decisions.md section 3). The guard checks key, action and
// origin; the door limits and counts; the ingest service does the rest.
import { Controller, Get, Options, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { BROWSER_BODY_LIMIT, byVisitor, door, DoorRequest, DoorRoute, Doors, OpenDoor, statusAnswer } from '@app/edge';
import { WorkspacesService } from '@app/workspaces';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { pickEncoding, TRACK_SCRIPT_HEADERS, TrackScript } from '../tag/track-script.service';
import { publicDoorOf, PublicDoorGuard } from './public-door.guard';

interface WebsiteEndpointServices {
  guard: PublicDoorGuard;
  ingest: IngestService;
  heartbeat: HeartbeatService;
}

/** POST /api/in/{public_key}/{action}: a visitor's post, limited per visitor IP and action. */
export const WEBSITE_ENDPOINT_DOOR = door({
  method: 'POST',
  path: '/api/in/:publicKey/:action',
  status: 200,
  bodyLimit: BROWSER_BODY_LIMIT,
  eventItems: 'public',
  authenticate: (req, { guard }: WebsiteEndpointServices, res) => guard.authenticate(req, res),
  rateLimit: { limit: (req) => `public:${publicDoorOf(req).action!}`, key: byVisitor },
  heartbeat: { action: (req) => publicDoorOf(req).action!, origin: (req) => publicDoorOf(req).origin! },
  async handle(body, req, { ingest }) {
    const { workspace, action } = publicDoorOf(req);
    return statusAnswer(await ingest.ingestPublic(workspace, action!, body, req.ip));
  },
});

@Controller()
export class WebsiteEndpointsController {
  private readonly posts: OpenDoor<WebsiteEndpointServices>;

  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly trackScript: TrackScript,
    doors: Doors,
    guard: PublicDoorGuard,
    ingest: IngestService,
    heartbeat: HeartbeatService,
  ) {
    this.posts = doors.open(WEBSITE_ENDPOINT_DOOR, { guard, ingest, heartbeat });
  }

  @Get('api/in/:publicKey/track.js')
  @UseGuards(PublicDoorGuard)
  async script(@Req() req: Request, @Res() res: Response) {
    const script = await this.trackScript.render(this.workspaces.publicBaseUrl(publicDoorOf(req).workspace.publicKey));
    res.set(TRACK_SCRIPT_HEADERS).set({ ETag: script.etag, Vary: 'Accept-Encoding' });
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) return res.status(304).end();
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    res.send(script[encoding]);
  }

  @Options(WEBSITE_ENDPOINT_DOOR.path)
  @UseGuards(PublicDoorGuard)
  preflight(@Res() res: Response) {
    res.set({
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
  }

  @DoorRoute(WEBSITE_ENDPOINT_DOOR)
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.posts.serve(req, res);
  }
}
