// interface.md "Authentication", tool door row: who a tool call acts as. One function, so a connector's
// OAuth access token (answered invalid_token when stale) can join the pasted secret key here later.
import { AuthContext, Refusal, WorkspacesService } from '@app/core';
import { protectedResourceAddress } from './domain/protocol';

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
