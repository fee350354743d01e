// interface.md "Public website endpoints": POST {BASE_URL}/api/in/{public_key}/{subscribe|identify|event|support}
// straight from visitors' browsers. These doors add people and never read anything: answers carry ok
// and status only (decisions.md section 3).
import { Controller, Get, HttpCode, Options, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { originAllowed, RateLimits, Refusal, sendRefusal, WorkspaceEntity, WorkspacesService } from '@app/core';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { pickEncoding, TRACK_SCRIPT_HEADERS, TrackScript } from '../tag/track-script.service';

const ACTIONS = ['subscribe', 'identify', 'event', 'support'] as const;
type PublicAction = (typeof ACTIONS)[number];

/** What a honeypot post is told: the action's usual status. */
const USUAL_STATUS: Record<PublicAction, string> = { subscribe: 'subscribed', identify: 'linked', event: 'recorded', support: 'recorded' };

const isFilled = (value: unknown) => value !== undefined && value !== null && value !== '';

@Controller('api/in/:publicKey')
export class PublicDoorsController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly ingest: IngestService,
    private readonly limits: RateLimits,
    private readonly heartbeat: HeartbeatService,
    private readonly trackScript: TrackScript,
  ) {}

  @Get('track.js')
  async script(@Param('publicKey') publicKey: string, @Req() req: Request, @Res() res: Response) {
    await this.workspace(publicKey);
    const script = await this.trackScript.render(this.workspaces.publicBaseUrl(publicKey));
    res.set(TRACK_SCRIPT_HEADERS).set({ ETag: script.etag, Vary: 'Accept-Encoding' });
    if (req.headers['if-none-match']?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) return res.status(304).end();
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    res.send(script[encoding]);
  }

  @Options(':action')
  async preflight(@Param('publicKey') publicKey: string, @Param('action') action: string, @Req() req: Request, @Res() res: Response) {
    const workspace = await this.workspace(publicKey);
    this.action(action);
    this.origin(workspace, req, res);
    res.set({
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
  }

  @Post(':action')
  @HttpCode(200)
  async post(@Param('publicKey') publicKey: string, @Param('action') rawAction: string, @Req() req: Request, @Res() res: Response) {
    const workspace = await this.workspace(publicKey);
    const action = this.action(rawAction);
    const origin = this.origin(workspace, req, res);
    try {
      await this.limits.consume(`public:${action}`, `${workspace.id}:${req.ip}`);
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new Refusal('invalid_json', 'Send one JSON object.');
      }
      const fields = body as Record<string, unknown>;
      if (isFilled(fields.hp) || isFilled(fields.website)) {
        this.heartbeat.count(workspace.id, action, 'honeypot', origin);
        return res.json({ ok: true, status: USUAL_STATUS[action] }); // accepted and thrown away
      }
      const [result] = await this.ingest.ingest(workspace, [this.item(action, fields, req)], { publicDoor: true, door: action });
      if (result instanceof Refusal) throw result;
      this.heartbeat.count(workspace.id, action, result.status, origin);
      res.json({ ok: true, status: result.status });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.heartbeat.count(workspace.id, action, error.code, origin);
      sendRefusal(res, error);
    }
  }

  private item(action: PublicAction, fields: Record<string, unknown>, req: Request): Record<string, unknown> {
    if (action === 'event') return fields;
    const item: Record<string, unknown> = { ...fields, type: action };
    // A browser's subscribe carries the visitor's address as proof of consent unless the page sent one.
    const consent = fields.consent;
    if (action === 'subscribe' && consent && typeof consent === 'object' && !Array.isArray(consent) && !('ip' in consent)) {
      item.consent = { ...consent, ip: req.ip };
    }
    return item;
  }

  private async workspace(publicKey: string): Promise<WorkspaceEntity> {
    const workspace = await this.workspaces.findByPublicKey(publicKey);
    if (!workspace) throw new Refusal('unknown_key', 'No workspace has that public key: copy the public address again from the workspace settings.');
    return workspace;
  }

  private action(action: string): PublicAction {
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw new Refusal('unknown_action', `"${action.slice(0, 40)}" is not an action: post to subscribe, identify, event or support.`);
    }
    return action as PublicAction;
  }

  /** Only the sites the workspace names; the answer then carries CORS headers for that origin. */
  private origin(workspace: WorkspaceEntity, req: Request, res: Response): string {
    const origin = req.headers.origin;
    if (!originAllowed(origin, workspace.allowedOrigins)) {
      throw new Refusal('origin_not_allowed', `Posts are accepted only from the sites the workspace names${origin ? `, not ${origin.slice(0, 100)}` : ''}: add the site to the allowed origins.`);
    }
    res.set({ 'Access-Control-Allow-Origin': origin!, Vary: 'Origin' });
    return origin!;
  }
}
