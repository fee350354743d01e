// docs/webhooks.md#automation-posts: the workspace's http_request signing secret is derived, not
// stored, and readable by owners and admins as workspace{automationSigningSecret}.
import { ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, Manager, WorkspaceType } from '@app/workspaces';
import { AutomationsService } from '../automations.service';

@Resolver(() => WorkspaceType)
export class SigningSecretResolver {
  constructor(private readonly automations: AutomationsService) {}

  @ResolveField(() => String, {
    description: 'The whsec_ secret that signs automation http_request posts (owners and admins only).',
  })
  automationSigningSecret(@Manager() auth: AuthContext) {
    return this.automations.signingSecret(auth.workspaceId);
  }
}
