// GraphQL: who the caller is (the console's first read): a member through a key or a session, or the operator.
import { UseGuards } from '@nestjs/common';
import { Field, ID, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AnyCaller, CallerContext, GraphqlAuthGuard } from '../auth/graphql-auth.guard';
import { SessionsService } from '../sign-in/sessions.service';
import { WorkspacesService } from '../workspaces.service';

@ObjectType('ViewerWorkspace')
export class ViewerWorkspaceType {
  @Field(() => ID) id: string;
  @Field() slug: string;
  @Field() name: string;
}

@ObjectType('Viewer')
export class ViewerType {
  @Field({ description: 'True for the operator (ADMIN_TOKEN or an operator session), who acts in no workspace.' })
  operator: boolean;
  @Field({ nullable: true, description: "The member's email; null for the operator." }) email?: string;
  @Field({ nullable: true, description: 'owner, admin or member; null for the operator.' }) role?: string;
  @Field(() => ViewerWorkspaceType, {
    nullable: true,
    description: 'The workspace the caller acts in; null for the operator.',
  })
  workspace?: ViewerWorkspaceType;
  @Field({
    description:
      'True for a session opened by an email link whose address is a member of more than one workspace: it can ' +
      'switch at /sign-in/workspace.',
  })
  canSwitchWorkspace: boolean;
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class ViewerResolver {
  constructor(
    private readonly workspaces: WorkspacesService,
    private readonly sessions: SessionsService,
  ) {}

  @Query(() => ViewerType, { description: 'Who is calling: any secret key or session of a member, or the operator.' })
  async viewer(@AnyCaller() caller: CallerContext): Promise<ViewerType> {
    if (!caller.auth) return { operator: caller.operator, canSwitchWorkspace: false };
    const workspace = await this.workspaces.get(caller.auth.workspaceId);
    const memberships = caller.signedIn ? await this.sessions.memberships(caller.signedIn) : [];
    return {
      operator: false,
      canSwitchWorkspace: memberships.length > 1,
      email: caller.auth.memberEmail,
      role: caller.auth.role,
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
    };
  }
}
