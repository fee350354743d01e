// The tool door's authorization server, as the MCP SDK's OAuthServerProvider. The SDK's
// handlers parse and check each request (PKCE S256, registered redirect addresses, client auth), after
// this lib's own checks of /register and /authorize (authorization-server.ts, authorize-request.ts); this
// provider keeps the state through workspaces' ConnectionsService and answers /authorize with the
// sign-in page or the consent page.
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  CustomOAuthError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { hostileJsonRefusal, unstorableText } from '@app/edge';
import { AppConfig, CONFIG } from '@app/platform';
import {
  ClientRow,
  ConnectionsService,
  OAuthRefusal,
  SessionsService,
  SignInClock,
  toolDoorResource,
  WorkspacesService,
} from '@app/workspaces';
import { renderConsentPage } from '../pages';
import { sendPage, sessionTokenOf } from '../http/browser';
import { CONSENT_MS, signConsent } from './consent-request';
import { authorizeParamsOf } from './authorize-request';

@Injectable()
export class OAuthProvider implements OAuthServerProvider {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly sessions: SessionsService,
    private readonly workspaces: WorkspacesService,
    private readonly clock: SignInClock,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (id) => {
        if (unstorableText(id)) return undefined; // no such id could have been issued
        const row = await this.connections.client(id);
        return row ? clientInfo(row) : undefined;
      },
      registerClient: async (client) => {
        const hostile = hostileJsonRefusal(client); // the SDK's handler read this body, not our body parsers
        if (hostile) throw new InvalidClientMetadataError(hostile.message);
        return clientInfo(await this.connections.register(client).catch(oauthError));
      },
    };
  }

  /**
   * No session: the sign-in page, then back here. Signed in as a member: the consent page. The request was checked by
   * authorize-request.ts; one that names no resource asks for the one this server protects, the tool door.
   */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const resource = params.resource?.href ?? toolDoorResource(this.config.baseUrl);
    const redirectUriNamed = authorizeParamsOf(res.req).redirect_uri !== undefined;
    const signedIn = await this.sessions.current(sessionTokenOf(res.req));
    const back = `/authorize?${new URLSearchParams(authorizeQuery(client, params, redirectUriNamed))}`;
    if (!signedIn) return res.redirect(303, `/sign-in?next=${encodeURIComponent(back)}`);
    if (!signedIn.auth) return res.redirect(303, `/sign-in/workspace?next=${encodeURIComponent(back)}`);
    const workspace = await this.workspaces.get(signedIn.auth.workspaceId);
    const request = signConsent(
      {
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        redirectUriNamed,
        challenge: params.codeChallenge,
        state: params.state,
        scopes: params.scopes ?? [],
        resource,
        sessionId: signedIn.sessionId,
        until: this.clock.now().getTime() + CONSENT_MS,
      },
      this.config.appSecret,
    );
    sendPage(
      res,
      200,
      renderConsentPage({
        clientName: client.client_name ?? 'An MCP client',
        clientUri: client.client_uri ?? null,
        redirectHost: new URL(params.redirectUri).host,
        memberEmail: signedIn.auth.memberEmail,
        workspaceName: workspace.name,
        workspaceSlug: workspace.slug,
        role: signedIn.auth.role,
        request,
      }),
    );
  }

  challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return this.connections.challengeFor(client.client_id, code).catch(oauthError);
  }

  exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    return this.connections.exchangeCode(client.client_id, code, redirectUri, resource?.href).catch(oauthError);
  }

  exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    return this.connections.exchangeRefresh(client.client_id, refreshToken, resource?.href).catch(oauthError);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const auth = await this.connections.authenticate(token).catch(() => {
      throw new InvalidTokenError('The access token has run out, was revoked, or was issued for something else.');
    });
    return { token, clientId: auth.keyId, scopes: [], resource: new URL(`${this.config.baseUrl}/api/mcp`) };
  }

  revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    return this.connections.revokeToken(client.client_id, request.token);
  }
}

/** A registered client as the SDK reads it: public (no secret), under our own id. */
function clientInfo(row: ClientRow): OAuthClientInformationFull {
  return {
    ...(row.info as object),
    client_id: row.id,
    client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
    redirect_uris: row.redirect_uris,
    token_endpoint_auth_method: 'none',
  } as OAuthClientInformationFull;
}

/** The authorize request again, as the sign-in page sends the browser back with it. */
function authorizeQuery(
  client: OAuthClientInformationFull,
  params: AuthorizationParams,
  redirectUriNamed: boolean,
): Record<string, string> {
  const query: Record<string, string> = {
    response_type: 'code',
    client_id: client.client_id,
    code_challenge: params.codeChallenge,
    code_challenge_method: 'S256',
  };
  if (redirectUriNamed) query.redirect_uri = params.redirectUri;
  if (params.state !== undefined) query.state = params.state;
  if (params.scopes?.length) query.scope = params.scopes.join(' ');
  if (params.resource) query.resource = params.resource.href;
  return query;
}

/** ConnectionsService's refusals as the SDK's OAuth errors (their codes and 400s). */
function oauthError(error: unknown): never {
  if (!(error instanceof OAuthRefusal)) throw error;
  if (error.code === 'invalid_grant') throw new InvalidGrantError(error.message);
  if (error.code === 'invalid_target') throw new InvalidTargetError(error.message);
  if (error.code === 'invalid_client_metadata') throw new InvalidClientMetadataError(error.message);
  throw new CustomOAuthError(error.code, error.message);
}
