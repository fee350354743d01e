// interface.md "Authentication", tool door row, and decisions.md section 10: who may call the tool
// door. The bearer check is one function, so a connector's OAuth access token (answered
// invalid_token when stale) can join the pasted secret key here later.
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { AuthContext, AuthedRequest, WorkspacesService } from '@app/workspaces';
import { protectedResourceAddress, protocolVersionOf } from './domain/protocol';

export async function authenticateToolCaller(workspaces: WorkspacesService, authorization: string | undefined, baseUrl: string): Promise<AuthContext> {
  try {
    return await workspaces.authenticate(authorization);
  } catch (error) {
    if (error instanceof Refusal && error.code === 'invalid_key') {
      // interface.md Authentication rule 2: the 401 says where to sign in.
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
        'Browsers may not call the tool door: from a web page, post to your public address with the public key (wk_…); call /api/mcp from a server or an MCP client.',
      );
    }
    req.auth = await authenticateToolCaller(this.workspaces, req.headers.authorization, this.config.baseUrl);
    const version = protocolVersionOf(req.headers['mcp-protocol-version']);
    if (version instanceof Refusal) throw version;
  }
}
