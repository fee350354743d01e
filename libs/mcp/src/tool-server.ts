// A stateless MCP server per request (docs/mcp.md): the tools bound to who is calling.
// A refusal is a tool result with isError and the REST refusal JSON as its text.
import { Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type InitializeResult,
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { readsFromReplica, Refusal } from '@app/platform';
import { toolCallError } from './domain/json-rpc';
import { negotiatedProtocolVersion } from './domain/protocol';
import type { ToolCall, ToolDefinition } from './tools/tool';

const logger = new Logger('ToolDoor');
const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';

const SERVER_INFO = { name: 'lifeline', version: '0.1.0' };

function refusalResult(refusal: Refusal): CallToolResult {
  const body = refusal.toBody();
  delete body.retryAfter;
  delete body.headers;
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** counted(tool, answer) is told the answer of every call: a status, or a refusal code. */
export function buildToolServer(
  tools: ToolDefinition[],
  call: ToolCall,
  counted: (tool: string, answer: string) => void,
  calledTool: string | null,
): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Lifeline records what people did (events), keeps one timeline and lifecycle stage per person, and sends ' +
      'one-to-one emails. Every tool acts as the member whose secret key is the bearer.',
  });
  // The SDK says listChanged: true; the tool list never changes while a stateless post is answered.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  // The SDK answers arguments that fail the input schema with its own text; we answer them as the
  // REST door would, so every refusal a model sees has a code and a sentence naming the fix.
  (server as unknown as { createToolError(message: string): CallToolResult }).createToolError = (message: string) => {
    const refusal = new Refusal('invalid_field', `${message}. Fix the arguments to match the tool's input schema.`);
    counted(calledTool ?? 'tools/call', refusal.code);
    return refusalResult(refusal);
  };
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input, outputSchema: tool.output },
      async (input: unknown) => {
        try {
          const answer = await (tool.readOnly
            ? readsFromReplica(() => tool.run(call, input as never))
            : tool.run(call, input as never));
          counted(tool.name, typeof answer.status === 'string' ? answer.status : 'ok');
          return {
            content: [{ type: 'text', text: JSON.stringify(answer) }],
            structuredContent: answer as Record<string, unknown>,
          };
        } catch (error) {
          if (!(error instanceof Refusal))
            logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
          const refusal = error instanceof Refusal ? error : new Refusal('server_error', SERVER_ERROR);
          counted(tool.name, refusal.code);
          return refusalResult(refusal);
        }
      },
    );
  }
  return server;
}

/**
 * Connects the server to a post's transport, keeping the door's own rules between them (docs/mcp.md#protocol-versions):
 * initialize agrees only to a version the door serves, and a tools/call naming no tool of the door is a JSON-RPC
 * invalid params error, answered here before the SDK would make it a tool result.
 */
export async function connectToolServer(server: McpServer, transport: Transport, tools: string[]): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage!;
  const send = transport.send.bind(transport);
  const asked = new Map<RequestId, unknown>();
  transport.onmessage = (message, extra) => {
    const error = toolCallError(message, tools);
    if (error) {
      const id = (message as { id: RequestId }).id;
      void send({ jsonrpc: '2.0', id, error }).catch((failed: unknown) => logger.error(String(failed)));
      return;
    }
    if (isJSONRPCRequest(message) && isInitializeRequest(message))
      asked.set(message.id, message.params.protocolVersion);
    deliver(message, extra);
  };
  transport.send = (message: JSONRPCMessage, options) => {
    if (isJSONRPCResultResponse(message) && asked.has(message.id)) {
      const result = message.result as InitializeResult;
      message = {
        ...message,
        result: { ...result, protocolVersion: negotiatedProtocolVersion(asked.get(message.id)) },
      };
    }
    return send(message, options);
  };
}
