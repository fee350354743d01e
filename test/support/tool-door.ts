// One tools/list call to the tool door with a bearer token, as a connector makes it: what the OAuth specs
// ask of a token they were given (taken, or refused invalid_token with its challenge).
export async function listToolsWith(mcpUrl: string | URL, token: string) {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: string },
    challenge: response.headers.get('www-authenticate'),
  };
}
