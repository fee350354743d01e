// The public website doors' gate (docs/rest.md#website-endpoints): the public key names the
// workspace (unknown_key), the path an action (unknown_action), and only the sites the workspace names
// may post (origin_not_allowed); the answer then carries CORS headers for that origin.
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { DoorRequest } from '@app/edge';
import { originAllowed, WorkspaceEntity, WorkspacesService } from '@app/workspaces';
import { Refusal } from '@app/platform';
import { PublicAction, publicAction } from '../domain';

export type PublicDoorRequest = DoorRequest & {
  publicDoor?: { workspace: WorkspaceEntity; action?: PublicAction; origin?: string };
};

@Injectable()
export class PublicDoorGuard implements CanActivate {
  constructor(private readonly workspaces: WorkspacesService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(
      context.switchToHttp().getRequest<PublicDoorRequest>(),
      context.switchToHttp().getResponse<ServerResponse>(),
    );
    return true;
  }

  /** The guard's check, which the website endpoints' door (website-endpoints.controller.ts) calls directly. */
  async authenticate(req: PublicDoorRequest, res: Pick<ServerResponse, 'setHeader'>): Promise<void> {
    const workspace = await this.workspaces.findByPublicKey(String(req.params.publicKey));
    if (!workspace)
      throw new Refusal(
        'unknown_key',
        'No workspace has that public key: copy the public address again from the workspace settings.',
      );
    req.doorWorkspaceId = workspace.id;
    req.publicDoor = { workspace };
    if (req.params.action === undefined) return;
    const action = publicAction(String(req.params.action));
    if (action instanceof Refusal) throw action;
    const origin = req.headers.origin;
    if (!originAllowed(origin, workspace.allowedOrigins)) {
      throw new Refusal(
        'origin_not_allowed',
        `Posts are accepted only from the sites the workspace names${origin ? `, not ${origin.slice(0, 100)}` : ''}: add the site to the allowed origins.`,
      );
    }
    res.setHeader('Access-Control-Allow-Origin', origin!);
    res.setHeader('Vary', 'Origin');
    req.publicDoor = { workspace, action, origin: origin! };
  }
}

/** What the guard found; only for handlers behind it. */
export const publicDoorOf = (req: DoorRequest) => (req as PublicDoorRequest).publicDoor!;
