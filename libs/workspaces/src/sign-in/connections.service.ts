// What the tool door's authorization server keeps. A connector registers itself
// (RFC 7591), a member's consent makes a one-time code bound to the client, redirect address, PKCE
// challenge and the tool door as resource (RFC 8707); the code becomes a connection with an access
// token (an hour) and a refresh token that is used once (rotation: a reused one revokes the whole
// connection). Every token is stored hashed and read with its connection, member and workspace, so a
// revoked connection or a removed member stops at once, in every process.
import { AppConfig, newId, Refusal } from '@app/platform/plain';
import type { AuthContext } from '../auth/auth-context';
import { ConnectionRow, ConnectionsRepository, ClientRow, TokenRow } from './connections.repository';
import type { SignInClock } from './sessions.service';
import { registrationRefusal } from './client-registration';
import {
  ACCESS_TOKEN_MS,
  CODE_MS,
  isToolDoorResource,
  newToken,
  REFRESH_TOKEN_MS,
  SESSION_SEEN_EVERY_MS,
  tokenHash,
  toolDoorResource,
} from './sign-in-rules';

/** What a client sends to register, as far as this server reads it (the rest is kept as sent). */
export interface ClientRegistration {
  redirect_uris: string[];
  client_name?: string;
  [key: string]: unknown;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

/** The grant a consent makes: who allowed which client, for which redirect address and PKCE challenge. */
export interface Consent {
  clientId: string;
  workspaceId: string;
  memberId: string;
  challenge: string;
  redirectUri: string;
  /** The authorize request named redirect_uri (RFC 6749 4.1.3: the token request must then name it); default true. */
  redirectUriNamed?: boolean;
  resource: string;
  scopes: string[];
}

const UNKNOWN_CODE = 'The authorization code is unknown or run out: start the sign-in again.';
const STALE = 'The access token has run out, was revoked, or was issued for something else: sign in again.';

/** An OAuth error of the token and registration endpoints (RFC 6749 5.2, RFC 7591 3.2.2, RFC 8707). */
export class OAuthRefusal extends Error {
  constructor(
    readonly code: 'invalid_grant' | 'invalid_target' | 'invalid_redirect_uri' | 'invalid_client_metadata',
    message: string,
  ) {
    super(message);
    this.name = 'OAuthRefusal';
  }
}

export class ConnectionsService {
  constructor(
    private readonly repository: ConnectionsRepository,
    private readonly config: AppConfig,
    private readonly clock: SignInClock,
  ) {}

  /**
   * Dynamic client registration (public clients): redirect addresses and the client's own addresses must be https or
   * loopback http, within the limits of client-registration.ts.
   */
  async register(registration: ClientRegistration): Promise<ClientRow> {
    const refused = registrationRefusal(registration);
    if (refused) throw new OAuthRefusal(refused.code, refused.message);
    const uris = registration.redirect_uris;
    const name = (typeof registration.client_name === 'string' && registration.client_name.trim()) || 'An MCP client';
    // Public clients only (OAuth 2.1, PKCE): a secret the SDK's handler made for a client that asked for one is neither
    // kept nor returned.
    const { client_secret: _secret, client_secret_expires_at: _expires, ...metadata } = registration;
    const row = {
      id: newId('cli'),
      name,
      redirect_uris: uris,
      info: { ...metadata, token_endpoint_auth_method: 'none' },
    };
    await this.repository.insertClient(row);
    return { ...row, created_at: this.clock.now() };
  }

  client(id: string): Promise<ClientRow | null> {
    return this.repository.client(id);
  }

  /** The one-time code a member's Allow makes (a minute to exchange). */
  async consent(c: Consent): Promise<string> {
    if (!isToolDoorResource(c.resource, this.config.baseUrl))
      throw new OAuthRefusal(
        'invalid_target',
        `Ask for the tool door: resource=${toolDoorResource(this.config.baseUrl)}.`,
      );
    const code = newToken('code');
    const expires = new Date(this.clock.now().getTime() + CODE_MS);
    await this.repository.insertCode(tokenHash(code), {
      client_id: c.clientId,
      workspace_id: c.workspaceId,
      member_id: c.memberId,
      challenge: c.challenge,
      redirect_uri: c.redirectUri,
      redirect_uri_named: c.redirectUriNamed ?? true,
      resource: toolDoorResource(this.config.baseUrl),
      scopes: c.scopes,
      expires_at: expires,
    });
    return code;
  }

  /**
   * The PKCE challenge of a code of this client (the SDK's token handler checks the verifier against it). A used code
   * answers too, so that only a replay with the right verifier reaches exchangeCode and revokes what the code made.
   */
  async challengeFor(clientId: string, code: string): Promise<string> {
    const row = await this.repository.code(tokenHash(code));
    if (!row || row.client_id !== clientId || (!row.used_at && row.expires_at.getTime() <= this.clock.now().getTime()))
      throw invalidGrant(UNKNOWN_CODE);
    return row.challenge;
  }

  /**
   * Exchanges a code once for a new connection's tokens. A code presented again revokes that connection, its access and
   * refresh tokens (OAuth 2.1 section 4.1.3): whoever redeemed it first, the client and a thief cannot both go on.
   */
  async exchangeCode(
    clientId: string,
    code: string,
    redirectUri: string | undefined,
    resource: string | undefined,
  ): Promise<IssuedTokens> {
    const answer = await this.repository.transaction(async (tx) => {
      const hash = tokenHash(code);
      const row = await this.repository.code(hash, tx, true);
      const now = this.clock.now();
      if (!row || row.client_id !== clientId) return invalidGrant(UNKNOWN_CODE);
      if (row.used_at) {
        if (row.connection_id) await this.repository.revoke(row.workspace_id, row.connection_id, now, undefined, tx);
        return invalidGrant('The authorization code was used already: the tokens it made are revoked; sign in again.');
      }
      if (row.expires_at.getTime() <= now.getTime()) return invalidGrant(UNKNOWN_CODE);
      if (redirectUri === undefined && row.redirect_uri_named)
        return invalidGrant('Send redirect_uri: the authorize request named one, and the code is bound to it.');
      if (redirectUri !== undefined && redirectUri !== row.redirect_uri)
        return invalidGrant('redirect_uri differs from the one the code was issued to.');
      if (resource !== undefined && !isToolDoorResource(resource, this.config.baseUrl))
        return new OAuthRefusal('invalid_target', 'The code was issued for the tool door only.');
      const connectionId = newId('con');
      await this.repository.insertConnection(tx, {
        workspaceId: row.workspace_id,
        id: connectionId,
        clientId,
        memberId: row.member_id,
        resource: row.resource,
        scopes: row.scopes,
      });
      await this.repository.useCode(tx, hash, now, connectionId);
      return this.issue(tx, row.workspace_id, connectionId, row.scopes, now);
    });
    if (answer instanceof OAuthRefusal) throw answer; // thrown after commit: a replay's revocation stays
    return answer;
  }

  /**
   * Rotation: a refresh token is used once; using one again revokes its connection (a thief and the client cannot both
   * go on).
   */
  async exchangeRefresh(clientId: string, refreshToken: string, resource: string | undefined): Promise<IssuedTokens> {
    const refused = await this.repository.transaction(async (tx) => {
      const hash = tokenHash(refreshToken);
      const row = await this.repository.token(hash, tx, true);
      const now = this.clock.now();
      if (!row || row.kind !== 'refresh' || row.client_id !== clientId)
        return invalidGrant('The refresh token is unknown.');
      if (row.used_at) {
        await this.repository.revoke(row.workspace_id, row.connection_id, now, undefined, tx);
        return invalidGrant('The refresh token was used already: the connection is revoked; sign in again.');
      }
      if (row.revoked_at || row.member_removed || row.expires_at.getTime() <= now.getTime())
        return invalidGrant('The connection was revoked or has run out: sign in again.');
      if (resource !== undefined && !isToolDoorResource(resource, this.config.baseUrl))
        return new OAuthRefusal('invalid_target', 'The connection is for the tool door only.');
      await this.repository.useToken(tx, hash, now);
      return this.issue(tx, row.workspace_id, row.connection_id, row.scopes, now);
    });
    if (refused instanceof OAuthRefusal) throw refused; // thrown after commit: a reuse's revocation stays
    return refused;
  }

  /** The member an access token acts as, at the tool door; refused with invalid_token when stale. */
  async authenticate(accessToken: string): Promise<AuthContext> {
    const row = await this.repository.token(tokenHash(accessToken));
    const now = this.clock.now();
    if (!row || !live(row, now) || row.kind !== 'access' || !isToolDoorResource(row.resource, this.config.baseUrl))
      throw new Refusal('invalid_token', STALE);
    // Written at most once a minute, like a session's last request (the read above comes every call).
    if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() >= SESSION_SEEN_EVERY_MS)
      await this.repository.touch(row.workspace_id, row.connection_id, now);
    return {
      workspaceId: row.workspace_id,
      workspaceSlug: row.workspace_slug,
      memberId: row.member_id,
      memberEmail: row.member_email,
      role: row.role,
      keyId: row.connection_id,
    };
  }

  /** RFC 7009: revoking either token of a connection revokes the connection; an unknown token is no error. */
  async revokeToken(clientId: string, token: string): Promise<void> {
    const row = await this.repository.token(tokenHash(token));
    if (row && row.client_id === clientId)
      await this.repository.revoke(row.workspace_id, row.connection_id, this.clock.now());
  }

  /** Connected apps: every live connection of the workspace for owners and admins, a member's own otherwise. */
  list(auth: AuthContext, everyone: boolean): Promise<ConnectionRow[]> {
    return this.repository.list(auth.workspaceId, everyone ? undefined : auth.memberId);
  }

  async revoke(auth: AuthContext, connectionId: string, everyone: boolean): Promise<void> {
    if (
      await this.repository.revoke(
        auth.workspaceId,
        connectionId,
        this.clock.now(),
        everyone ? undefined : auth.memberId,
      )
    )
      return;
    throw new Refusal('not_found', `No connected app has id "${connectionId}" here: list them with connectedApps.`);
  }

  private async issue(
    tx: Parameters<Parameters<ConnectionsRepository['transaction']>[0]>[0],
    workspaceId: string,
    connectionId: string,
    scopes: string[],
    now: Date,
  ): Promise<IssuedTokens> {
    const access = newToken('access');
    const refresh = newToken('refresh');
    await this.repository.insertTokens(tx, workspaceId, connectionId, [
      { tokenHash: tokenHash(access), kind: 'access', expiresAt: new Date(now.getTime() + ACCESS_TOKEN_MS) },
      { tokenHash: tokenHash(refresh), kind: 'refresh', expiresAt: new Date(now.getTime() + REFRESH_TOKEN_MS) },
    ]);
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_MS / 1000,
      refresh_token: refresh,
      ...(scopes.length ? { scope: scopes.join(' ') } : {}),
    };
  }
}

function live(row: TokenRow, now: Date): boolean {
  return !row.revoked_at && !row.member_removed && !row.used_at && row.expires_at.getTime() > now.getTime();
}

function invalidGrant(message: string): OAuthRefusal {
  return new OAuthRefusal('invalid_grant', message);
}
