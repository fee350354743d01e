// interface.md "Public website endpoints": POST {BASE_URL}/api/in/{public_key}/{subscribe|identify|event|support}
// straight from visitors' browsers. These doors add people and never read anything: answers carry ok
// and status only (decisions.md section 3). The guard checks key, action and origin; the door
// pipeline limits and counts; the ingest service does the rest.
import { Controller, Get, HttpCode, Options, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { byVisitor, CountHeartbeat, RateLimit, statusAnswer } from '@app/edge';
import { WorkspacesService } from '@app/workspaces';
import { IngestService } from '../ingest/ingest.service';
import { pickEncoding, TRACK_SCRIPT_HEADERS, TrackScript } from '../tag/track-script.service';
import { publicDoorOf, PublicDoorGuard } from './public-door.guard';

@Controller('api/in/:publicKey')
@UseGuards(PublicDoorGuard)
export class PublicDoorsController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly ingest: IngestService,
    private readonly trackScript: TrackScript,
  ) {}

  @Get('track.js')
  async script(@Req() req: Request, @Res() res: Response) {
    const script = await this.trackScript.render(this.workspaces.publicBaseUrl(publicDoorOf(req).workspace.publicKey));
    res.set(TRACK_SCRIPT_HEADERS).set({ ETag: script.etag, Vary: 'Accept-Encoding' });
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) return res.status(304).end();
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    res.send(script[encoding]);
  }

  @Options(':action')
  preflight(@Res() res: Response) {
    res.set({
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
  }

  @Post(':action')
  @HttpCode(200)
  @RateLimit((req) => `public:${publicDoorOf(req).action!}`, byVisitor)
  @CountHeartbeat({ action: (req) => publicDoorOf(req).action!, origin: (req) => publicDoorOf(req).origin! })
  async post(@Req() req: Request) {
    const { workspace, action } = publicDoorOf(req);
    return statusAnswer(await this.ingest.ingestPublic(workspace, action!, req.body, req.ip));
  }
}
