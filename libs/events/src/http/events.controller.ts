// POST and GET /api/v1/events (interface.md "Events endpoint", decisions.md section 3).
import { Body, Controller, Get, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Auth, AuthContext, RateLimits, Refusal, SecretKeyGuard, WorkspacesService } from '@app/core';
import { parseBody } from '../domain';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { describeEventsEndpoint } from './events-description';

@Controller('api/v1/events')
export class EventsController {
  constructor(
    private readonly ingest: IngestService,
    private readonly workspaces: WorkspacesService,
    private readonly limits: RateLimits,
    private readonly heartbeat: HeartbeatService,
  ) {}

  @Get()
  describe() {
    return describeEventsEndpoint();
  }

  @Post()
  @HttpCode(200)
  @UseGuards(SecretKeyGuard)
  async post(@Auth() auth: AuthContext, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    try {
      await this.limits.consume('server', auth.keyId);
    } catch (error) {
      if (error instanceof Refusal) this.heartbeat.count(auth.workspaceId, 'event', error.code, 'server');
      throw error;
    }
    const parsed = parseBody(body);
    if (parsed instanceof Refusal) {
      this.heartbeat.count(auth.workspaceId, 'event', parsed.code, 'server');
      throw parsed;
    }
    const workspace = await this.workspaces.get(auth.workspaceId);
    const items = parsed.batch ? parsed.items : [parsed.item];
    const results = await this.ingest.ingest(workspace, items, { publicDoor: false });
    items.forEach((item, i) => {
      const r = results[i];
      this.heartbeat.count(auth.workspaceId, actionOf(item), r instanceof Refusal ? r.code : r.status, 'server');
    });
    if (!parsed.batch) {
      const result = results[0];
      if (result instanceof Refusal) throw result;
      return result;
    }
    const shaped = results.map((r, index) => (r instanceof Refusal ? { index, ...r.toBody() } : { index, ...r }));
    if (results.every((r) => !(r instanceof Refusal))) return { ok: true, results: shaped };
    res.status(207);
    return { ok: false, error: 'partial_failure', message: 'Some items were refused; each result says why. The others were recorded.', results: shaped };
  }
}

function actionOf(item: unknown): string {
  const type = (item as { type?: unknown })?.type;
  return type === 'identify' || type === 'subscribe' || type === 'support' ? type : 'event';
}
