// docs/mcp.md#rules-of-the-door: the JSON-RPC 2.0 rules the door keeps itself, where the MCP SDK answers
// otherwise: what a batch spends of the rate limit, an empty batch, a batch's answer always an array, and
// tools/call naming no tool the door has.

/** A JSON-RPC error object (the `error` of a response). */
export interface JsonRpcError {
  code: number;
  message: string;
}

export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** How many calls of the rate limit a post spends: each message of a batch, one for a single message. */
export function callsIn(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

/** JSON-RPC 2.0: an empty array is answered with one error object, id null. */
export function emptyBatchAnswer(body: unknown): { jsonrpc: '2.0'; error: JsonRpcError; id: null } | null {
  if (!Array.isArray(body) || body.length > 0) return null;
  return {
    jsonrpc: '2.0',
    error: {
      code: INVALID_REQUEST,
      message: 'Invalid Request: an empty batch holds no call: send one JSON-RPC message, or an array of at least one.',
    },
    id: null,
  };
}

/**
 * JSON-RPC 2.0: a batch is answered with an array of the responses to its requests (notifications get none),
 * even when only one is left; a single message keeps its single answer.
 */
export function batchAnswerText(body: unknown, answer: string): string {
  if (!Array.isArray(body) || answer === '' || answer.trimStart().startsWith('[')) return answer;
  return `[${answer}]`;
}

/**
 * The error of a tools/call that names no tool of the door (invalid params, not a tool result: no arguments
 * the model could fix would make it work); null for any other message.
 */
export function toolCallError(message: unknown, tools: string[]): JsonRpcError | null {
  const request = message as { method?: unknown; id?: unknown; params?: unknown } | null;
  if (request?.method !== 'tools/call' || request.id === undefined) return null;
  const named = `the tools are ${tools.join(', ')} (tools/list describes them)`;
  const params = request.params as { name?: unknown } | undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params) || typeof params.name !== 'string') {
    return {
      code: INVALID_PARAMS,
      message: `Invalid params: tools/call takes params {"name": "<tool>", "arguments": {…}}; ${named}.`,
    };
  }
  if (tools.includes(params.name)) return null;
  return {
    code: INVALID_PARAMS,
    message: `Invalid params: no tool is named ${JSON.stringify(params.name.slice(0, 60))}; ${named}.`,
  };
}
