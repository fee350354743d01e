import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { WorkspacesService } from '../workspaces.service';
import type { AuthContext } from './auth-context';

export type AuthedRequest = Request & { auth?: AuthContext };

/** Bearer secret keys on the key-authenticated endpoints (docs/rest.md#key-authenticated-routes). */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(private readonly workspaces: WorkspacesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.workspaces.authenticateRequest(context.switchToHttp().getRequest<AuthedRequest>());
    return true;
  }
}

export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  return context.switchToHttp().getRequest<AuthedRequest>().auth!;
});
