// interface.md "Tool door": POST /api/mcp speaks MCP over streamable HTTP, stateless (one POST in, one
// JSON answer out); GET and DELETE answer 405; a browser (Origin header) is refused.
import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppConfig, AuthContext, CONFIG, RateLimits, Refusal, WorkspacesService } from '@app/core';
import { HeartbeatService } from '@app/events';
import { protectedResourceMetadata, protocolVersionOf } from '../domain/protocol';
import { authenticateToolCaller } from '../tool-caller';
import { buildToolServer } from '../tool-server';
import { ToolsService } from '../tools/tools.service';

const ORIGIN = 'mcp';

@Controller()
export class McpController {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly limits: RateLimits,
    private readonly heartbeat: HeartbeatService,
    private readonly tools: ToolsService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('api/mcp')
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.headers.origin !== undefined) {
      throw new Refusal(
        'use_the_public_key_from_browsers',
        'Browsers may not call the tool door: from a web page, post to your public address with the public key (wk_…); call /api/mcp from a server or an MCP client.',
      );
    }
    const auth = await authenticateToolCaller(this.workspaces, req.headers.authorization, this.config.baseUrl);
    const tool = calledTool(req.body);
    await this.refusing(auth, tool, async () => {
      const version = protocolVersionOf(req.headers['mcp-protocol-version']);
      if (version instanceof Refusal) throw version;
      await this.limits.consume('mcp', auth.keyId);
    });
    const workspace = await this.workspaces.get(auth.workspaceId);
    const server = buildToolServer(this.tools.all, { auth, workspace }, (name, answer) => this.heartbeat.count(auth.workspaceId, name, answer, ORIGIN), tool);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void Promise.all([transport.close(), server.close()]).catch(() => undefined));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  @Get('api/mcp')
  get(): never {
    throw methodNotAllowed();
  }

  @Delete('api/mcp')
  delete(): never {
    throw methodNotAllowed();
  }

  /** RFC 9728, where the 401's WWW-Authenticate header points (also at the path-suffixed address). */
  @Get(['.well-known/oauth-protected-resource', '.well-known/oauth-protected-resource/api/mcp'])
  protectedResource() {
    return protectedResourceMetadata(this.config.baseUrl);
  }

  /** A refusal after the key is known still counts in the heartbeat under the tool it was for. */
  private async refusing(auth: AuthContext, tool: string | null, check: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (error) {
      if (error instanceof Refusal) this.heartbeat.count(auth.workspaceId, tool ?? 'mcp', error.code, ORIGIN);
      throw error;
    }
  }
}

function methodNotAllowed(): Refusal {
  return new Refusal(
    'method_not_allowed',
    'The tool door takes POST only: POST JSON-RPC messages (initialize, tools/list, tools/call) to /api/mcp with "Authorization: Bearer sk_live_…", "Content-Type: application/json" and "Accept: application/json, text/event-stream".',
    { headers: { Allow: 'POST' } },
  );
}

function calledTool(body: unknown): string | null {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  return message?.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name.slice(0, 40) : null;
}
