// The routes of Segment's HTTP Tracking API (segment-door.ts, docs/rest.md#segments-http-tracking-api):
// POST /v1/{call} and its CORS preflight. The paths a server posts to are also hot doors (answered before
// Express, as the events endpoint is); each is the same declaration at an exact path, and anything unusual
// in a request (a charset, as browsers send) goes on to this controller's route, which serves the same door.
import { Controller, Inject, Options, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DoorRequest, DoorRoute, Doors, OpenDoor, Reference } from '@app/edge';
import { type AppConfig, CONFIG, RateLimits } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { segmentDoor, SegmentPost, SegmentServices } from './segment-door';
import { SEGMENT_CALL_REFERENCE, SEGMENT_PREFLIGHT_REFERENCE } from './segment-reference';

/** POST /v1/{call}: every call, from servers and browsers. */
const SEGMENT_DOOR = segmentDoor('/v1/:call', (req) => String(req.params.call));
/** The paths Segment's server libraries post to, answered before Express. */
const SEGMENT_HOT_DOORS = ['batch', 'track', 'identify', 'page', 'screen', 'group', 'alias', 'import'].map((call) =>
  segmentDoor(`/v1/${call}`, () => call, true),
);

@Controller()
export class SegmentController {
  private readonly calls: OpenDoor<SegmentServices, SegmentPost>;

  constructor(
    doors: Doors,
    ingest: IngestService,
    workspaces: WorkspacesService,
    heartbeat: HeartbeatService,
    limits: RateLimits,
    @Inject(CONFIG) config: AppConfig,
  ) {
    const services: SegmentServices = { ingest, workspaces, heartbeat, limits, trustProxy: config.trustProxy };
    this.calls = doors.open(SEGMENT_DOOR, services);
    for (const hot of SEGMENT_HOT_DOORS) doors.open(hot, services);
  }

  @Options(SEGMENT_DOOR.path)
  @Reference(SEGMENT_PREFLIGHT_REFERENCE)
  preflight(@Req() req: Request, @Res() res: Response) {
    const origin = req.headers.origin;
    if (origin) res.set({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
    res.set({
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Retry-Count',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
  }

  @DoorRoute(SEGMENT_DOOR, SEGMENT_CALL_REFERENCE)
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.calls.serve(req, res);
  }
}
