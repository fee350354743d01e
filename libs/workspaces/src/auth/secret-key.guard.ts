import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { WorkspacesService } from '../workspaces.service';
import type { AuthContext } from './auth-context';

export type AuthedRequest = Request & { auth?: AuthContext };

export interface SecretKeyOptions {
  /**
   * For a door whose writes check its key in the writing statement (keyRecheckCte) and which calls
   * auth.recheck.verify() when it writes nothing: a key this process has seen live is then taken without
   * looking it up (issue 18). Only for doors that do not read the member's role.
   */
  recheckedByWrite?: boolean;
}

/** Bearer secret keys on the key-authenticated endpoints (interface.md "Authentication"). */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(private readonly workspaces: WorkspacesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<AuthedRequest>());
    return true;
  }

  /** Sets the request's auth from its bearer key, or refuses; a door (a post's route, hot or not) calls it directly. */
  async authenticate(request: Pick<AuthedRequest, 'headers' | 'auth'>, options: SecretKeyOptions = {}): Promise<void> {
    request.auth = await this.workspaces.authenticate(request.headers.authorization, options);
  }
}

export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  return context.switchToHttp().getRequest<AuthedRequest>().auth!;
});
