// docs/rest.md#website-endpoints: POST {BASE_URL}/api/in/{public_key}/{subscribe|identify|event|support}
// straight from visitors' browsers, and the tag's script. These endpoints add people and never read
// anything: answers carry ok and status only (docs/rest.md#answers-and-refusals). The guard checks key,
// action and origin; the door limits and counts; the ingest service does the rest.
import { Controller, Get, Options, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  BROWSER_BODY_LIMIT,
  byVisitor,
  door,
  DoorRequest,
  DoorRoute,
  Doors,
  OpenDoor,
  Reference,
  statusAnswer,
} from '@app/edge';
import { LIMITS } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import { PUBLIC_ACTIONS } from '../domain';
import { unknownPublicField } from '../domain/item-fields';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { pickEncoding, TRACK_SCRIPT_HEADERS, TrackScript } from '../tag/track-script.service';
import { ITEM_REFUSALS } from './events.controller';
import { publicDoorOf, PublicDoorGuard } from './public-door.guard';

const PUBLIC_KEY = {
  publicKey: {
    description: "The workspace's public key (wk_…), from its settings: its public address is /api/in/{publicKey}.",
  },
};
const ADDRESS = {
  ...PUBLIC_KEY,
  action: { description: 'What the post does.', schema: { type: 'string', enum: [...PUBLIC_ACTIONS] } },
};
/** The public door's gate (public-door.guard.ts): the key, the action, the posting site. */
const GATE = ['unknown_key', 'unknown_action', 'origin_not_allowed'] as const;

interface WebsiteEndpointServices {
  guard: PublicDoorGuard;
  ingest: IngestService;
  heartbeat: HeartbeatService;
}

/** POST /api/in/{public_key}/{action}: a visitor's post, limited per visitor IP and action. */
const WEBSITE_ENDPOINT_DOOR = door({
  method: 'POST',
  path: '/api/in/:publicKey/:action',
  status: 200,
  bodyLimit: BROWSER_BODY_LIMIT,
  eventItems: 'public',
  authenticate: (req, { guard }: WebsiteEndpointServices, res) => guard.authenticate(req, res),
  rateLimit: { limit: (req) => `public:${publicDoorOf(req).action!}`, key: byVisitor },
  heartbeat: { action: (req) => publicDoorOf(req).action!, origin: (req) => publicDoorOf(req).origin! },
  parse: (req) => unknownPublicField(req.body, publicDoorOf(req).action!) ?? req.body,
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
  @Reference({
    operationId: 'getTrackScript',
    summary: "The website tag's script",
    description:
      "The script a site includes to post pageviews and clicks for its visitors and keep each browser's " +
      "anon_id, with the workspace's public address in it. Served compressed (br or gzip) when the browser " +
      'takes it, with an ETag.',
    tag: 'website',
    caller: 'anyone',
    params: PUBLIC_KEY,
    answers: {
      200: { description: 'The script.', mediaType: 'application/javascript', schema: { type: 'string' } },
      304: { description: 'Not modified: the If-None-Match sent names the script as it is.' },
    },
    refuses: ['unknown_key'],
  })
  async script(@Req() req: Request, @Res() res: Response) {
    const script = await this.trackScript.render(this.workspaces.publicBaseUrl(publicDoorOf(req).workspace.publicKey));
    res.set(TRACK_SCRIPT_HEADERS).set({ ETag: script.etag, Vary: 'Accept-Encoding' });
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag))
      return res.status(304).end();
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    res.send(script[encoding]);
  }

  @Options(WEBSITE_ENDPOINT_DOOR.path)
  @UseGuards(PublicDoorGuard)
  @Reference({
    operationId: 'preflightWebsiteAction',
    summary: "A browser's CORS preflight of a website endpoint",
    description:
      'Answered for the sites the workspace names: the answer allows POST with Content-Type for ten minutes.',
    tag: 'website',
    caller: 'anyone',
    params: ADDRESS,
    answers: { 204: { description: 'The post may follow: Access-Control-Allow-Origin names the site.' } },
    refuses: [...GATE],
  })
  preflight(@Res() res: Response) {
    res.set({
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
  }

  @DoorRoute(WEBSITE_ENDPOINT_DOOR, {
    operationId: 'postWebsiteAction',
    summary: "A visitor's subscribe, identify, event or support post",
    description: [
      `Straight from a visitor's browser, on a site the workspace names; the body (at most ` +
        `${BROWSER_BODY_LIMIT / 1024} KB) holds the action's fields, without its type. ` +
        ('A subscribe needs consent.text; an event takes only the names the tag posts (any other comes from a ' +
          'server, with the secret key). A filled field named hp or ' +
          'website marks a bot: the post is answered as usual and thrown away.'),
      `Each visitor IP may post, per workspace in ten minutes: subscribe ${LIMITS['public:subscribe']}, ` +
        `identify ${LIMITS['public:identify']}, ` +
        `event ${LIMITS['public:event']}, support ${LIMITS['public:support']}.`,
    ].join('\n\n'),
    tag: 'website',
    caller: 'anyone',
    params: ADDRESS,
    body: {
      schema: 'WirePublicPost',
      example: {
        email: 'ada@example.com',
        list: 'newsletter',
        consent: { text: 'Yes, send me the monthly newsletter.' },
      },
    },
    answers: {
      200: {
        description: 'ok and the status only: the public doors never tell ids.',
        schema: 'ActionSuccess',
        example: { ok: true, status: 'subscribed' },
      },
    },
    refuses: [...GATE, ...ITEM_REFUSALS],
  })
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.posts.serve(req, res);
  }
}
