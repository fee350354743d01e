// A stateless MCP server per request (docs/mcp.md): the tools bound to who is calling.
// A refusal is a tool result with isError and the REST refusal JSON as its text.
import { Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readsFromReplica, Refusal } from '@app/platform';
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
