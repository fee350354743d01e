// Issue 27 item 2: an MCP client signs in at the tool door by its URL alone. The official MCP SDK client
// discovers the authorization server, registers itself, sends the person's browser (Playwright driving
// Chromium) through /authorize, the sign-in page and the consent page, exchanges the code, lists and
// calls tools with the access token; a refresh rotates, a reused refresh token revokes the connection,
// and revoking the app through GraphQL refuses its token at the next call with invalid_token.
import { createServer, Server } from 'node:http';
import { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthClientProvider, refreshAuthorization, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { freePort } from '@app/platform';
import { HOUR_MS, SignInClock } from '@app/workspaces';
import { useApp, useWorkspace } from './harness';
import { launchBrowser } from './support/browser';

/** What an MCP client keeps between its steps, in memory. */
class MemoryProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test connector', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The client's loopback redirect address: keeps the query each redirect arrives with. */
async function callbackServer() {
  const arrived: URLSearchParams[] = [];
  const port = await freePort();
  const server: Server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (at.pathname === '/callback') arrived.push(at.searchParams); // not the browser's favicon
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/callback`, arrived, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const t = useApp();
const ws = useWorkspace(t, {}, 'all');
let browser: Browser;
let callback: Awaited<ReturnType<typeof callbackServer>>;
beforeAll(async () => {
  browser = await launchBrowser();
  callback = await callbackServer();
});
afterAll(async () => {
  await browser?.close();
  await callback?.close();
});

/** The person's part: the browser opens the authorization URL, signs in with the secret key and clicks `decision`. */
async function personSignsIn(url: URL, decision: 'Allow' | 'Deny'): Promise<URLSearchParams> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url.href);
    await page.getByLabel('Secret key').fill(ws.secretKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: decision, exact: true }).waitFor();
    expect(await page.content()).toContain('Test connector');
    const before = callback.arrived.length;
    await page.getByRole('button', { name: decision, exact: true }).click();
    await page.waitForURL((at) => at.href.startsWith(callback.url));
    expect(callback.arrived.length).toBe(before + 1);
    return callback.arrived[before];
  } finally {
    await context.close();
  }
}

const mcpUrl = () => new URL(`${t.url}/api/mcp`);

async function connect(provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 'connector-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  return client;
}

async function toolDoor(token: string) {
  const response = await fetch(mcpUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return { status: response.status, body: (await response.json()) as { error?: string }, challenge: response.headers.get('www-authenticate') };
}

describe('the official MCP client signs in by the URL alone', () => {
  const provider = () => new MemoryProvider(callback.url);

  it('discovery, registration, authorize in a browser, token, listTools and callTool; then revoked through GraphQL', async () => {
    const p = provider();
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: p });
    const client = new Client({ name: 'connector-test', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(p.information?.client_id).toMatch(/^cli_/);
    expect(p.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(p.authorizationUrl?.searchParams.get('resource')).toBe(mcpUrl().href);

    const answer = await personSignsIn(p.authorizationUrl!, 'Allow');
    expect(answer.get('state')).toBe(p.authorizationUrl!.searchParams.get('state'));
    await transport.finishAuth(answer.get('code')!);
    expect(p.saved?.access_token).toMatch(/^lla_/);
    expect(p.saved?.expires_in).toBe(3600);

    const connected = await connect(p);
    const tools = await connected.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('identify_person');
    const called = await connected.callTool({ name: 'identify_person', arguments: { email: 'connector@example.com', name: 'Con Nector' } });
    expect(called.isError).toBeFalsy();
    const people = await t.gql(`{ person(email: "connector@example.com") { name } }`, {}, ws.secretKey);
    expect(JSON.stringify(people)).toContain('Con Nector');
    await connected.close();

    const apps = (await t.gql('{ connectedApps { id name member lastUsedAt } }', {}, ws.secretKey)).data.connectedApps;
    const mine = apps.find((app: { name: string }) => app.name === 'Test connector');
    expect(mine).toMatchObject({ member: 'owner@example.com' });
    expect(mine.lastUsedAt).toBeTruthy();
    expect((await t.gql(`mutation { revokeConnectedApp(id: "${mine.id}") }`, {}, ws.secretKey)).data.revokeConnectedApp).toBe(true);
    const refused = await toolDoor(p.saved!.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_token');
    expect(refused.challenge).toBe(`Bearer error="invalid_token", resource_metadata="${t.url}/.well-known/oauth-protected-resource"`);
  });

  it('a refresh rotates; the old refresh token used again revokes the connection', async () => {
    const p = provider();
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: p });
    await expect(new Client({ name: 'connector-test', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await transport.finishAuth((await personSignsIn(p.authorizationUrl!, 'Allow')).get('code')!);
    const first = p.saved!;
    const rotated = await refreshAuthorization(t.url, { clientInformation: p.information!, refreshToken: first.refresh_token!, resource: mcpUrl() });
    expect(rotated.access_token).not.toBe(first.access_token);
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect((await toolDoor(rotated.access_token)).status).toBe(200);
    await expect(refreshAuthorization(t.url, { clientInformation: p.information!, refreshToken: first.refresh_token!, resource: mcpUrl() })).rejects.toThrow(/used already/);
    expect((await toolDoor(rotated.access_token)).body.error).toBe('invalid_token');
  });

  it('an access token runs out after an hour; Deny sends the browser back with access_denied', async () => {
    const p = provider();
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: p });
    await expect(new Client({ name: 'connector-test', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await transport.finishAuth((await personSignsIn(p.authorizationUrl!, 'Allow')).get('code')!);
    expect((await toolDoor(p.saved!.access_token)).status).toBe(200);
    t.app.get(SignInClock).advance(HOUR_MS + 1_000);
    expect((await toolDoor(p.saved!.access_token)).body.error).toBe('invalid_token');

    const q = provider();
    const denied = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: q });
    await expect(new Client({ name: 'connector-test', version: '1.0.0' }).connect(denied)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await personSignsIn(q.authorizationUrl!, 'Deny')).get('error')).toBe('access_denied');
  });

  it('registration refuses a redirect address that is neither https nor loopback http', async () => {
    const answer = await fetch(`${t.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Bad', redirect_uris: ['http://evil.example/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });
});
