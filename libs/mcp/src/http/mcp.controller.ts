// docs/mcp.md: POST /api/mcp speaks MCP over streamable HTTP, stateless (one POST in, one
// JSON answer out); GET and DELETE answer 405. The door counts the rate limit (600 calls per key per ten
// minutes, each message of a batch a call) and the heartbeat of refused posts; each tool call counts its own answer.
import { Controller, Delete, Get, Inject, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AppConfig, CONFIG, LIMITS, RateLimits, Refusal } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import {
  bySecretKey,
  door,
  DoorRequest,
  DoorResponse,
  DoorRoute,
  Doors,
  OpenDoor,
  Reference,
  RouteReference,
  SERVER_BODY_LIMIT,
} from '@app/edge';
import { HeartbeatService } from '@app/events';
import { batchAnswerText, callsIn, emptyBatchAnswer } from '../domain/json-rpc';
import { DEFAULT_PROTOCOL_VERSION, protectedResourceMetadata, SUPPORTED_PROTOCOL_VERSIONS } from '../domain/protocol';
import { ToolDoorGuard } from '../tool-caller';
import { buildToolServer, connectToolServer } from '../tool-server';
import { ToolsService } from '../tools/tools.service';

const ORIGIN = 'mcp';
const LIMIT = { limit: 'mcp', key: bySecretKey } as const;

interface ToolDoorServices {
  caller: ToolDoorGuard;
  workspaces: WorkspacesService;
  tools: ToolsService;
  heartbeat: HeartbeatService;
  limits: RateLimits;
}

/** POST /api/mcp: one JSON-RPC message or a batch, answered by the MCP SDK's transport. */
const TOOL_DOOR = door({
  method: 'POST',
  path: '/api/mcp',
  status: 200,
  bodyLimit: SERVER_BODY_LIMIT,
  writesOwnAnswer: true,
  authenticate: (req, { caller }: ToolDoorServices) => caller.authenticate(req),
  rateLimit: LIMIT,
  heartbeat: { action: (req) => calledTool(req.body) ?? 'mcp', origin: () => ORIGIN },
  async handle(body, req, { workspaces, tools, heartbeat, limits }, res) {
    // The door spent one call before the body was read; a batch spends the rest before any of it runs, refused
    // whole when it carries more than are left (docs/decisions.md#the-tool-door-counts-calls-and-keeps-json-rpc).
    const calls = callsIn(body);
    if (calls > 1) await limits.consume(LIMIT.limit, LIMIT.key(req), calls - 1, 1, req.auth!.workspaceId);
    const empty = emptyBatchAnswer(body);
    if (empty) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(empty));
    const auth = req.auth!;
    const workspace = await workspaces.get(auth.workspaceId);
    const counted = (tool: string, answer: string) => heartbeat.count(auth.workspaceId, tool, answer, ORIGIN);
    const server = buildToolServer(tools.all, { auth, workspace }, counted, calledTool(body));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await connectToolServer(
        server,
        transport,
        tools.all.map((tool) => tool.name),
      );
      const answer = await transport.handleRequest(webRequest(req), { parsedBody: body });
      const text = batchAnswerText(body, await answer.text());
      writeAnswer(res, answer, text);
    } finally {
      await Promise.all([transport.close(), server.close()]).catch(() => undefined);
    }
  },
});

/** The post as the SDK's web-standard transport reads it: its headers (the body is passed parsed). */
function webRequest(req: DoorRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(new URL(req.url ?? '/api/mcp', 'http://tool-door.invalid'), { method: 'POST', headers });
}

function writeAnswer(res: DoorResponse, answer: globalThis.Response, text: string): void {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(answer.status, headers).end(text);
}

/** The MCP SDK transport's own error answer: a JSON-RPC error with no id. */
const TRANSPORT_ERROR = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
    id: { type: 'null' },
  },
};

/** The MCP SDK's transport answers these itself, as JSON-RPC errors (the door has already let the post in). */
const TRANSPORT_ERRORS: RouteReference['answers'] = {
  400: {
    description: 'A JSON body that is no JSON-RPC message of MCP (a JSON-RPC error from the MCP transport).',
    schema: TRANSPORT_ERROR,
    example: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null },
  },
  406: {
    description:
      'Not Acceptable: Accept must name both application/json and text/event-stream (a JSON-RPC error from the ' +
      'MCP transport).',
    schema: TRANSPORT_ERROR,
    example: {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
      },
      id: null,
    },
  },
  415: {
    description:
      'Unsupported Media Type: Content-Type must be application/json (a JSON-RPC error from the MCP transport).',
    schema: TRANSPORT_ERROR,
    example: {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' },
      id: null,
    },
  },
};

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
    limits: RateLimits,
  ) {
    this.calls = doors.open(TOOL_DOOR, { caller, workspaces, tools, heartbeat, limits });
  }

  @DoorRoute(TOOL_DOOR, {
    operationId: 'postMcp',
    summary: 'A Model Context Protocol message',
    description: [
      'Streamable HTTP, stateless: one JSON-RPC message (initialize, tools/list, tools/call and the like) in, ' +
        'one JSON answer out; ' +
        ("send Accept: application/json, text/event-stream. The tools act as the key's member, through the same " +
          'services as the REST routes.'),
      `MCP-Protocol-Version may name ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}; without it the request speaks ` +
        `${DEFAULT_PROTOCOL_VERSION}. ` +
        ('A request with an Origin header (a browser) is refused. An invalid key or token answers 401 with ' +
          'WWW-Authenticate naming ') +
        '/.well-known/oauth-protected-resource, where a connector learns how to sign in.',
      'initialize answers the version asked for when the door serves it, else the latest it serves. An empty batch ' +
        'answers 400 with one JSON-RPC error (-32600); a batch is answered with an array.',
      `The body is at most ${SERVER_BODY_LIMIT / 1024} KB; ${LIMITS.mcp} calls per key or connection in ten minutes, ` +
        'each message of a batch one call (a batch of more than are left is refused whole).',
    ].join('\n\n'),
    tag: 'tool-door',
    caller: 'secret key or connector',
    body: { schema: 'JsonRpcMessage', example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    answers: {
      200: { description: 'The JSON-RPC answer.', schema: 'JsonRpcMessage' },
      202: { description: 'Accepted: the post held only notifications or responses, which have no answer.' },
      ...TRANSPORT_ERRORS,
    },
    refuses: [
      'use_the_public_key_from_browsers',
      'invalid_key',
      'invalid_token',
      'no_longer_a_member',
      'unsupported_protocol_version',
    ],
  })
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.calls.serve(req, res);
  }

  @Get('api/mcp')
  @Reference(postOnly('getMcp', 'GET'))
  get(): never {
    throw methodNotAllowed();
  }

  @Delete('api/mcp')
  @Reference(postOnly('deleteMcp', 'DELETE'))
  delete(): never {
    throw methodNotAllowed();
  }

  /** RFC 9728, where the 401's WWW-Authenticate header points. */
  @Get('.well-known/oauth-protected-resource')
  @Reference(protectedResource('getProtectedResourceMetadata', ''))
  protectedResource() {
    return protectedResourceMetadata(this.config.baseUrl);
  }

  /** The same document at RFC 9728's path-suffixed address of the tool door. */
  @Get('.well-known/oauth-protected-resource/api/mcp')
  @Reference(
    protectedResource(
      'getToolDoorProtectedResourceMetadata',
      " (RFC 9728's address suffixed with the tool door's path)",
    ),
  )
  toolDoorProtectedResource() {
    return protectedResourceMetadata(this.config.baseUrl);
  }
}

function postOnly(operationId: string, method: string): RouteReference {
  return {
    operationId,
    summary: `${method} on the tool door: refused`,
    description:
      'The tool door is stateless and takes POST only: this answers 405 with Allow: POST and a sentence saying ' +
      'what to post.',
    tag: 'tool-door',
    caller: 'anyone',
    answers: {},
    refuses: ['method_not_allowed'],
    examples: { method_not_allowed: methodNotAllowed().message },
  };
}

function protectedResource(operationId: string, where: string): RouteReference {
  return {
    operationId,
    summary: `The tool door's protected resource metadata${where}`,
    description:
      'Where a connector learns to sign in before calling the tool door: the authorization server (this ' +
      'service) and how to send the token.',
    tag: 'tool-door',
    caller: 'anyone',
    answers: { 200: { description: 'RFC 9728 metadata.', schema: 'ProtectedResourceMetadata' } },
    refuses: [],
  };
}

function methodNotAllowed(): Refusal {
  return new Refusal(
    'method_not_allowed',
    'The tool door takes POST only: POST JSON-RPC messages (initialize, tools/list, tools/call) to /api/mcp ' +
      'with "Authorization: Bearer sk_live_…", "Content-Type: application/json" and "Accept: application/json, ' +
      'text/event-stream".',
    { headers: { Allow: 'POST' } },
  );
}

/** The tool a JSON-RPC post calls, for the heartbeat; null for initialize, tools/list and the like. */
function calledTool(body: unknown): string | null {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  return message?.method === 'tools/call' && typeof message.params?.name === 'string'
    ? message.params.name.slice(0, 40)
    : null;
}
