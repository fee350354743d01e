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
    await this.authenticate(context.switchToHttp().getRequest<AuthedRequest>());
    return true;
  }

  /** Sets the request's auth from its bearer key, or refuses; a hot door (HotDoors) calls it directly. */
  async authenticate(request: Pick<AuthedRequest, 'headers' | 'auth'>): Promise<void> {
    request.auth = await this.workspaces.authenticate(request.headers.authorization);
  }
}

export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  return context.switchToHttp().getRequest<AuthedRequest>().auth!;
});
