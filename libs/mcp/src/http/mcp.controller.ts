// interface.md "Tool door": POST /api/mcp speaks MCP over streamable HTTP, stateless (one POST in, one
// JSON answer out); GET and DELETE answer 405. The door counts the rate limit (600 calls per key per ten
// minutes) and the heartbeat of refused posts; each tool call counts its own answer.
import { Controller, Delete, Get, Inject, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import { bySecretKey, door, DoorRequest, DoorRoute, Doors, OpenDoor, SERVER_BODY_LIMIT } from '@app/edge';
import { HeartbeatService } from '@app/events';
import { protectedResourceMetadata } from '../domain/protocol';
import { ToolDoorGuard } from '../tool-caller';
import { buildToolServer } from '../tool-server';
import { ToolsService } from '../tools/tools.service';

const ORIGIN = 'mcp';

interface ToolDoorServices {
  caller: ToolDoorGuard;
  workspaces: WorkspacesService;
  tools: ToolsService;
  heartbeat: HeartbeatService;
}

/** POST /api/mcp: one JSON-RPC message, answered by the MCP SDK's transport itself. */
export const TOOL_DOOR = door({
  method: 'POST',
  path: '/api/mcp',
  status: 200,
  bodyLimit: SERVER_BODY_LIMIT,
  writesOwnAnswer: true,
  authenticate: (req, { caller }: ToolDoorServices) => caller.authenticate(req),
  rateLimit: { limit: 'mcp', key: bySecretKey },
  heartbeat: { action: (req) => calledTool(req.body) ?? 'mcp', origin: () => ORIGIN },
  async handle(body, req, { workspaces, tools, heartbeat }, res) {
    const auth = req.auth!;
    const workspace = await workspaces.get(auth.workspaceId);
    const counted = (tool: string, answer: string) => heartbeat.count(auth.workspaceId, tool, answer, ORIGIN);
    const server = buildToolServer(tools.all, { auth, workspace }, counted, calledTool(body));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void Promise.all([transport.close(), server.close()]).catch(() => undefined));
    await server.connect(transport);
    await transport.handleRequest(req as IncomingMessage, res, body);
  },
});

@Controller()
export class McpController {
  private readonly calls: OpenDoor<ToolDoorServices>;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    doors: Doors,
    caller: ToolDoorGuard,
    workspaces: WorkspacesService,
    tools: ToolsService,
    heartbeat: HeartbeatService,
  ) {
    this.calls = doors.open(TOOL_DOOR, { caller, workspaces, tools, heartbeat });
  }

  @DoorRoute(TOOL_DOOR)
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.calls.serve(req, res);
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
}

function methodNotAllowed(): Refusal {
  return new Refusal(
    'method_not_allowed',
    'The tool door takes POST only: POST JSON-RPC messages (initialize, tools/list, tools/call) to /api/mcp with "Authorization: Bearer sk_live_…", "Content-Type: application/json" and "Accept: application/json, text/event-stream".',
    { headers: { Allow: 'POST' } },
  );
}

/** The tool a JSON-RPC post calls, for the heartbeat; null for initialize, tools/list and the like. */
function calledTool(body: unknown): string | null {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  return message?.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name.slice(0, 40) : null;
}
