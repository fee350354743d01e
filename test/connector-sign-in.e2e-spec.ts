// An MCP client signs in at the tool door by its URL alone. The official MCP SDK client
// discovers the authorization server, registers itself, sends the person's browser (Playwright driving
// Chromium) through /authorize, the sign-in page and the consent page, exchanges the code, lists and
// calls tools with the access token; a refresh rotates, a reused refresh token revokes the connection,
// and revoking the app through GraphQL refuses its token at the next call with invalid_token.
import { createHash } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthClientProvider, refreshAuthorization, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { freePort } from '@app/platform';
import { ConnectionsService, HOUR_MS, SignInClock } from '@app/workspaces';
import { useApp, useWorkspace } from './harness';
import { launchBrowser } from './support/browser';
import { listToolsWith } from './support/tool-door';

/** What an MCP client keeps between its steps, in memory. */
class MemoryProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test connector',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
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
  return {
    url: `http://127.0.0.1:${port}/callback`,
    arrived,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
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

const toolDoor = (token: string) => listToolsWith(mcpUrl(), token);

/** A client whose first call was answered 401: it registered, and its person is to open `authorizationUrl`. */
async function sentToSignIn(): Promise<MemoryProvider & { transport: StreamableHTTPClientTransport }> {
  const p = Object.assign(new MemoryProvider(callback.url), {
    transport: undefined as unknown as StreamableHTTPClientTransport,
  });
  p.transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: p });
  await expect(new Client({ name: 'connector-test', version: '1.0.0' }).connect(p.transport)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  return p;
}

/** A client whose person signed in and allowed it: it holds its tokens. */
async function signedInClient(): Promise<MemoryProvider> {
  const p = await sentToSignIn();
  await p.transport.finishAuth((await personSignsIn(p.authorizationUrl!, 'Allow')).get('code')!);
  return p;
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
    const called = await connected.callTool({
      name: 'identify_person',
      arguments: { email: 'connector@example.com', name: 'Con Nector' },
    });
    expect(called.isError).toBeFalsy();
    const people = await t.gql(`{ person(email: "connector@example.com") { name } }`, {}, ws.secretKey);
    expect(JSON.stringify(people)).toContain('Con Nector');
    await connected.close();

    const apps = (await t.gql('{ connectedApps { id name member lastUsedAt } }', {}, ws.secretKey)).data.connectedApps;
    const mine = apps.find((app: { name: string }) => app.name === 'Test connector');
    expect(mine).toMatchObject({ member: 'owner@example.com' });
    expect(mine.lastUsedAt).toBeTruthy();
    expect(
      (await t.gql(`mutation { revokeConnectedApp(id: "${mine.id}") }`, {}, ws.secretKey)).data.revokeConnectedApp,
    ).toBe(true);
    const refused = await toolDoor(p.saved!.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_token');
    expect(refused.challenge).toBe(
      `Bearer error="invalid_token", resource_metadata="${t.url}/.well-known/oauth-protected-resource"`,
    );
  });

  it('a refresh rotates; the old refresh token used again revokes the connection', async () => {
    const p = await signedInClient();
    const first = p.saved!;
    const rotated = await refreshAuthorization(t.url, {
      clientInformation: p.information!,
      refreshToken: first.refresh_token!,
      resource: mcpUrl(),
    });
    expect(rotated.access_token).not.toBe(first.access_token);
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect((await toolDoor(rotated.access_token)).status).toBe(200);
    await expect(
      refreshAuthorization(t.url, {
        clientInformation: p.information!,
        refreshToken: first.refresh_token!,
        resource: mcpUrl(),
      }),
    ).rejects.toThrow(/used already/);
    expect((await toolDoor(rotated.access_token)).body.error).toBe('invalid_token');
  });

  it('an access token runs out after an hour; Deny sends the browser back with access_denied', async () => {
    const p = await signedInClient();
    expect((await toolDoor(p.saved!.access_token)).status).toBe(200);
    t.app.get(SignInClock).advance(HOUR_MS + 1_000);
    expect((await toolDoor(p.saved!.access_token)).body.error).toBe('invalid_token');

    const q = await sentToSignIn();
    expect((await personSignsIn(q.authorizationUrl!, 'Deny')).get('error')).toBe('access_denied');
  });

  it('/revoke (RFC 7009) revokes the connection: its access token is refused at the next call', async () => {
    const p = await signedInClient();
    expect((await toolDoor(p.saved!.access_token)).status).toBe(200);
    const revoked = await fetch(`${t.url}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: p.saved!.refresh_token!, client_id: p.information!.client_id }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await toolDoor(p.saved!.access_token)).body.error).toBe('invalid_token');
  });

  it('connectedApps: owners and admins see every connection of the workspace, a member only their own', async () => {
    await t.gql('mutation { addMember(email: "mo@example.com", role: "member") { id } }', {}, ws.secretKey);
    const memberKey = (await t.gql('mutation { createKey(member: "mo@example.com") { secretKey } }', {}, ws.secretKey))
      .data.createKey.secretKey;
    const [member] = await t.db.query(`SELECT id FROM members WHERE workspace_id = $1 AND email = 'mo@example.com'`, [
      ws.workspace.id,
    ]);
    const [owner] = await t.db.query(`SELECT id FROM members WHERE workspace_id = $1 AND email = 'owner@example.com'`, [
      ws.workspace.id,
    ]);
    // Connections made through the service (the browser's journey is the first test's).
    const connections = t.app.get(ConnectionsService);
    const connect = async (name: string, memberId: string) => {
      const client = await connections.register({ redirect_uris: [callback.url], client_name: name });
      const challenge = createHash('sha256').update('w'.repeat(50)).digest('base64url');
      const code = await connections.consent({
        clientId: client.id,
        workspaceId: ws.workspace.id,
        memberId,
        challenge,
        redirectUri: callback.url,
        resource: mcpUrl().href,
        scopes: [],
      });
      await connections.exchangeCode(client.id, code, callback.url, mcpUrl().href);
    };
    await connect('Mo app', member.id);
    await connect('Owner app', owner.id);
    const apps = async (key: string) =>
      (await t.gql('{ connectedApps { id name member } }', {}, key)).data.connectedApps as Array<{
        id: string;
        name: string;
        member: string;
      }>;
    expect((await apps(memberKey)).map((app) => `${app.name}/${app.member}`)).toEqual(['Mo app/mo@example.com']);
    const all = await apps(ws.secretKey);
    expect(all.map((app) => `${app.name}/${app.member}`)).toEqual(
      expect.arrayContaining(['Mo app/mo@example.com', 'Owner app/owner@example.com']),
    );
    const ownersApp = all.find((app) => app.name === 'Owner app')!;
    expect(
      (await t.gql(`mutation { revokeConnectedApp(id: "${ownersApp.id}") }`, {}, memberKey)).errors?.[0].extensions
        .code,
    ).toBe('not_found');
    expect(
      (await t.gql(`mutation { revokeConnectedApp(id: "${ownersApp.id}") }`, {}, ws.secretKey)).data.revokeConnectedApp,
    ).toBe(true);
  });

  it('/token refuses a wrong PKCE verifier, a reused code, another redirect address or resource', async () => {
    const [owner] = await t.db.query(`SELECT id FROM members WHERE workspace_id = $1 AND email = 'owner@example.com'`, [
      ws.workspace.id,
    ]);
    const connections = t.app.get(ConnectionsService);
    const client = await connections.register({ redirect_uris: [callback.url], client_name: 'Strict app' });
    const verifier = 'x'.repeat(64);
    const code = () =>
      connections.consent({
        clientId: client.id,
        workspaceId: ws.workspace.id,
        memberId: owner.id,
        challenge: createHash('sha256').update(verifier).digest('base64url'),
        redirectUri: callback.url,
        resource: mcpUrl().href,
        scopes: [],
      });
    const token = async (fields: Record<string, string>) => {
      const answer = await fetch(`${t.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: client.id,
          redirect_uri: callback.url,
          code_verifier: verifier,
          ...fields,
        }).toString(),
      });
      return { status: answer.status, body: (await answer.json()) as { error?: string; access_token?: string } };
    };
    expect((await token({ code: await code(), code_verifier: 'y'.repeat(64) })).body.error).toBe('invalid_grant');
    expect((await token({ code: await code(), redirect_uri: 'http://127.0.0.1:1/other' })).body.error).toBe(
      'invalid_grant',
    );
    expect((await token({ code: await code(), resource: `${t.url}/api/v1/events` })).body.error).toBe('invalid_target');
    const once = await code();
    expect((await token({ code: once })).body.access_token).toMatch(/^lla_/);
    const again = await token({ code: once });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('registration keeps no client secret, and refuses hostile metadata with 400, never a 500', async () => {
    const register = (body: unknown) =>
      fetch(`${t.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const confidential = await register({
      client_name: 'Asks for a secret',
      redirect_uris: [callback.url],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const registered = (await confidential.json()) as {
      client_id: string;
      client_secret?: string;
      token_endpoint_auth_method: string;
    };
    expect(confidential.status).toBe(201);
    expect(registered.client_secret).toBeUndefined();
    expect(registered.token_endpoint_auth_method).toBe('none');
    const [row] = await t.db.query(`SELECT info FROM oauth_clients WHERE id = $1`, [registered.client_id]);
    expect(JSON.stringify(row.info)).not.toContain('client_secret');
    const hostile = await register({
      client_name: 'nul\u0000name',
      redirect_uris: [callback.url],
      token_endpoint_auth_method: 'none',
    });
    expect(hostile.status).toBe(400);
    expect(((await hostile.json()) as { error: string }).error).toBe('invalid_client_metadata');
    const odd = await fetch(`${t.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&client_id=%00&code=x&code_verifier=y',
    });
    expect(odd.status).toBeLessThan(500);
  });

  it("a connection has its own 600 calls per ten minutes, apart from its member's keys", async () => {
    const p = await signedInClient();
    const statuses: number[] = [];
    for (let i = 0; i < 601; i++) statuses.push((await toolDoor(p.saved!.access_token)).status);
    expect(statuses.slice(0, 600).every((status) => status === 200)).toBe(true);
    expect(statuses[600]).toBe(429);
    expect((await toolDoor(ws.secretKey)).status).toBe(200); // the member's own key is counted apart
  }, 120_000);

  it('registration refuses a redirect address that is neither https nor loopback http', async () => {
    const answer = await fetch(`${t.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Bad',
        redirect_uris: ['http://evil.example/callback'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });
});
