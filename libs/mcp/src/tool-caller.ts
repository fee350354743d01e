// docs/mcp.md#rules-of-the-door: who may call the tool door: a pasted secret key, or the access token
// of a connector that signed in, answered invalid_token when it has run out, was revoked, or was issued
// for something else.
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { AuthContext, AuthedRequest, ConnectionsService, TOKEN_PREFIXES, WorkspacesService } from '@app/workspaces';
import { protectedResourceAddress, protocolVersionOf } from './domain/protocol';

function isIssuedToken(token: string): boolean {
  return token.startsWith(TOKEN_PREFIXES.access) || token.startsWith(TOKEN_PREFIXES.refresh);
}

async function authenticateToolCaller(
  callers: { workspaces: WorkspacesService; connections: ConnectionsService },
  authorization: string | undefined,
  baseUrl: string,
): Promise<AuthContext> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  try {
    // Any token shaped as the authorization server's (lla_, llr_), even cut short, is a stale token, not a key.
    if (token && isIssuedToken(token)) return await callers.connections.authenticate(token);
    return await callers.workspaces.authenticate(authorization);
  } catch (error) {
    if (error instanceof Refusal && error.code === 'invalid_token') {
      throw new Refusal('invalid_token', error.message, {
        headers: {
          'WWW-Authenticate': `Bearer error="invalid_token", resource_metadata="${protectedResourceAddress(baseUrl)}"`,
        },
      });
    }
    if (error instanceof Refusal && error.code === 'invalid_key') {
      // The 401 says where to sign in (WWW-Authenticate, docs/mcp.md#connecting-an-mcp-client).
      throw new Refusal('invalid_key', error.message, {
        headers: { 'WWW-Authenticate': `Bearer resource_metadata="${protectedResourceAddress(baseUrl)}"` },
      });
    }
    throw error;
  }
}

/** Not from a browser, a known bearer, a protocol version we speak: in that order. */
@Injectable()
export class ToolDoorGuard implements CanActivate {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly connections: ConnectionsService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<AuthedRequest>());
    return true;
  }

  /** The guard's check, which the tool door (mcp.controller.ts) calls directly. */
  async authenticate(req: Pick<AuthedRequest, 'headers' | 'auth'>): Promise<void> {
    if (req.headers.origin !== undefined) {
      throw new Refusal(
        'use_the_public_key_from_browsers',
        'Browsers may not call the tool door: from a web page, post to your public address with the public key ' +
          '(wk_…); call /api/mcp from a server or an MCP client.',
      );
    }
    req.auth = await authenticateToolCaller(
      { workspaces: this.workspaces, connections: this.connections },
      req.headers.authorization,
      this.config.baseUrl,
    );
    const version = protocolVersionOf(req.headers['mcp-protocol-version']);
    if (version instanceof Refusal) throw version;
  }
}
