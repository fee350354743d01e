import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { WorkspacesService } from '../workspaces.service';
import type { AuthContext } from './auth-context';

export type AuthedRequest = Request & { auth?: AuthContext };

const RECHECKED_BY_WRITE = 'auth:rechecked-by-write';

/**
 * Marks a handler whose writes check its key in the writing statement (keyRecheckCte) and which calls
 * auth.recheck.verify() when it writes nothing: the guard then takes a key this process has seen live
 * without looking it up (issue 18). Only for handlers that do not read the member's role.
 */
export const KeyRecheckedByWrite = () => SetMetadata(RECHECKED_BY_WRITE, true);

/** Bearer secret keys on the key-authenticated endpoints (interface.md "Authentication"). */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<AuthedRequest>(), context.getHandler());
    return true;
  }

  /** Sets the request's auth from its bearer key for that handler, or refuses; a hot door (HotDoors) calls it directly. */
  async authenticate(request: Pick<AuthedRequest, 'headers' | 'auth'>, handler: Function): Promise<void> {
    const recheckedByWrite = this.reflector.get<boolean | undefined>(RECHECKED_BY_WRITE, handler) === true;
    request.auth = await this.workspaces.authenticate(request.headers.authorization, { recheckedByWrite });
  }
}

export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  return context.switchToHttp().getRequest<AuthedRequest>().auth!;
});
