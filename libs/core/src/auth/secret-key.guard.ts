import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { WorkspacesService } from '../workspaces/workspaces.service';
import type { AuthContext } from './auth-context';

export type AuthedRequest = Request & { auth?: AuthContext };

/** Bearer secret keys on the key-authenticated endpoints (interface.md "Authentication"). */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(private readonly workspaces: WorkspacesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    request.auth = await this.workspaces.authenticate(request.headers.authorization);
    return true;
  }
}

export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  return context.switchToHttp().getRequest<AuthedRequest>().auth!;
});
