// The tool door's authorization server against a strict OAuth client (oauth4webapi: discovery with the
// issuer check, registration, PKCE, state and iss checked, code exchange, refresh, revocation), and the
// refusals of what such a client never sends but an attacker does. The person's part (sign-in with a
// secret key, Allow on the consent page) is posted with fetch, as a browser would.
import * as oauth from 'oauth4webapi';
import { SESSION_COOKIE } from '@app/workspaces';
import { useApp, useWorkspace } from './harness';
import { listToolsWith } from './support/tool-door';

const t = useApp();
const ws = useWorkspace(t, {}, 'all');
const CALLBACK = 'http://127.0.0.1:9/callback';
const insecure = { [oauth.allowInsecureRequests]: true }; // BASE_URL is loopback http in tests
const mcpUrl = () => `${t.url}/api/mcp`;

const toolDoor = (token: string) => listToolsWith(mcpUrl(), token);

/** The person signs in with the workspace's secret key, opens the authorize address and presses `decision`. */
async function personDecides(authorize: URL | string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const origin = new URL(t.url).origin;
  const form = { 'content-type': 'application/x-www-form-urlencoded', origin };
  const signIn = await fetch(`${t.url}/sign-in/key`, {
    method: 'POST',
    redirect: 'manual',
    headers: form,
    body: new URLSearchParams({ key: ws.secretKey, next: '/sign-in' }).toString(),
  });
  const cookie = `${SESSION_COOKIE}=${new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(signIn.headers.get('set-cookie')!)![1]}`;
  const page = await fetch(authorize, { redirect: 'manual', headers: { cookie } });
  const html = await page.text();
  expect(page.status).toBe(200);
  const request = /name="request" value="([^"]+)"/.exec(html)![1];
  const decided = await fetch(`${t.url}/consent`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...form, cookie },
    body: new URLSearchParams({ request, decision }).toString(),
  });
  expect(decided.status).toBe(302);
  return new URL(decided.headers.get('location')!);
}

async function register(body: Record<string, unknown>) {
  const answer = await fetch(`${t.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', ...body }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
}

async function token(fields: Record<string, string>) {
  const answer = await fetch(`${t.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
}

/** A registered client, a PKCE pair and the authorize address for it (`redirect_uri` and `resource` unless told). */
async function authorizeRequest(options: { name?: boolean; resource?: boolean; challenge?: string } = {}) {
  const client = (await register({ client_name: 'Strict client', redirect_uris: [CALLBACK] })).body;
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(`${t.url}/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  if (options.name !== false) url.searchParams.set('redirect_uri', CALLBACK);
  url.searchParams.set('code_challenge', options.challenge ?? (await oauth.calculatePKCECodeChallenge(verifier)));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', 'the-state');
  if (options.resource !== false) url.searchParams.set('resource', mcpUrl());
  return { client, verifier, url };
}

describe('a strict OAuth client (oauth4webapi) signs in by the tool door address', () => {
  it('the issuer is the very string the resource metadata names (RFC 8414 3.3), and every client is public', async () => {
    const resource = await (await fetch(`${t.url}/.well-known/oauth-protected-resource`)).json();
    const server = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
    expect(server.issuer).toBe(resource.authorization_servers[0]);
    expect(server.issuer).toBe(t.url);
    expect(server.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(server.revocation_endpoint_auth_methods_supported).toEqual(['none']);
    expect(server.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('discovers, registers, authorizes with PKCE, state and iss, exchanges the code, refreshes and revokes', async () => {
    const resource = await oauth.processResourceDiscoveryResponse(
      new URL(mcpUrl()),
      await oauth.resourceDiscoveryRequest(new URL(mcpUrl()), insecure),
    );
    const issuer = new URL(resource.authorization_servers![0]);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    const client = (await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'Strict client', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' },
        insecure,
      ),
    )) as oauth.Client;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource: resource.resource,
    }))
      authorize.searchParams.set(key, value);

    const params = oauth.validateAuthResponse(as, client, await personDecides(authorize), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK, verifier, {
        additionalParameters: { resource: resource.resource },
        ...insecure,
      }),
    );
    expect(tokens.access_token).toMatch(/^lla_/);
    expect((await toolDoor(tokens.access_token)).status).toBe(200);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await toolDoor(refreshed.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
    );
    expect((await toolDoor(refreshed.access_token)).body.error).toBe('invalid_token');

    const denied = await personDecides(authorize, 'deny');
    expect(() => oauth.validateAuthResponse(as, client, denied, state)).toThrow(oauth.AuthorizationResponseError);
    expect(denied.searchParams.get('iss')).toBe(as.issuer);
  });
});

describe('what an attacker sends is refused', () => {
  it('registration refuses a javascript: policy page, a fragment, 11 redirect addresses, a 201-character name', async () => {
    const before = (await t.db.query(`SELECT count(*)::int AS n FROM oauth_clients`))[0].n;
    const refusals = await Promise.all([
      register({ client_name: 'Evil', redirect_uris: [CALLBACK], policy_uri: 'javascript:alert(document.cookie)' }),
      register({ client_name: 'Evil', redirect_uris: [CALLBACK], client_uri: 'javascript:alert(1)' }),
      register({ client_name: 'Evil', redirect_uris: [`${CALLBACK}#`] }),
      register({ client_name: 'Evil', redirect_uris: Array.from({ length: 11 }, (_, i) => `${CALLBACK}${i}`) }),
      register({ client_name: 'E'.repeat(201), redirect_uris: [CALLBACK] }),
      register({ client_name: 'E'.repeat(50_000), redirect_uris: [CALLBACK] }),
    ]);
    expect(refusals.map((r) => `${r.status} ${r.body.error}`)).toEqual([
      '400 invalid_client_metadata',
      '400 invalid_client_metadata',
      '400 invalid_redirect_uri',
      '400 invalid_redirect_uri',
      '400 invalid_client_metadata',
      '400 invalid_client_metadata',
    ]);
    expect(refusals[0].body.error_description).toMatch(
      /^policy_uri javascript:.* must be https.*leave policy_uri out\.$/,
    );
    expect(refusals[3].body.error_description).toContain('at most 10 redirect_uris');
    expect(refusals[4].body.error_description).toContain('at most 200 characters');
    expect((await t.db.query(`SELECT count(*)::int AS n FROM oauth_clients`))[0].n).toBe(before);
  });

  it('/authorize refuses a redirect address with a fragment instead of honouring it', async () => {
    const { url } = await authorizeRequest();
    for (const fragment of [`${CALLBACK}#x`, `${CALLBACK}#`, 'http://127.0.0.1:10/callback#x']) {
      url.searchParams.set('redirect_uri', fragment);
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining('#'),
      });
    }
  });

  it('/authorize sends a mistake back with its state, the issuer and one sentence, not a validation dump', async () => {
    const refusedWith = async (url: URL) => {
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      return new URL(answer.headers.get('location')!).searchParams;
    };
    const short = await authorizeRequest({ challenge: 'abc' });
    const tooShort = await refusedWith(short.url);
    expect(Object.fromEntries(tooShort)).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('43 to 128'),
      state: 'the-state',
      iss: t.url,
    });
    const plain = new URL(short.url);
    plain.searchParams.set('code_challenge', 'c'.repeat(43));
    plain.searchParams.set('code_challenge_method', 'plain');
    const method = await refusedWith(plain);
    expect(method.get('state')).toBe('the-state');
    expect(method.get('error_description')).toBe('Send code_challenge_method=S256: no other is taken.');
    plain.searchParams.set('code_challenge_method', 'S256');
    plain.searchParams.set('resource', `${t.url}/api/v1/events`);
    expect((await refusedWith(plain)).get('error')).toBe('invalid_target');
  });

  it('/authorize without a resource asks for the tool door, whose code then works there', async () => {
    const { client, verifier, url } = await authorizeRequest({ resource: false });
    const answer = (await personDecides(url)).searchParams;
    expect(answer.get('error')).toBeNull();
    const issued = await token({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: answer.get('code')!,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
    });
    expect(issued.body.access_token).toMatch(/^lla_/);
    expect((await toolDoor(issued.body.access_token)).status).toBe(200);
  });

  it('/token wants the redirect_uri a code was issued to when the authorize request named one (RFC 6749 4.1.3)', async () => {
    const named = await authorizeRequest();
    const code = (await personDecides(named.url)).searchParams.get('code')!;
    const exchange = {
      grant_type: 'authorization_code',
      client_id: named.client.client_id,
      code_verifier: named.verifier,
    };
    const without = await token({ ...exchange, code });
    expect(without.status).toBe(400);
    expect(without.body).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringContaining('redirect_uri'),
    });
    expect((await token({ ...exchange, code, redirect_uri: CALLBACK })).body.access_token).toMatch(/^lla_/);

    const unnamed = await authorizeRequest({ name: false });
    const bare = (await personDecides(unnamed.url)).searchParams.get('code')!;
    const taken = await token({
      grant_type: 'authorization_code',
      client_id: unnamed.client.client_id,
      code_verifier: unnamed.verifier,
      code: bare,
    });
    expect(taken.body.access_token).toMatch(/^lla_/);
  });

  it('/token: a code presented again revokes the access and refresh tokens it made (OAuth 2.1 4.1.3)', async () => {
    const { client, verifier, url } = await authorizeRequest();
    const code = (await personDecides(url)).searchParams.get('code')!;
    const exchange = {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: CALLBACK,
    };
    const first = (await token(exchange)).body;
    expect((await toolDoor(first.access_token)).status).toBe(200);
    const replay = await token(exchange);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await toolDoor(first.access_token)).body.error).toBe('invalid_token');
    const refresh = await token({
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: first.refresh_token,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});
