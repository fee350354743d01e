import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthContext } from '../../auth/auth-context';
import { GraphqlAuthGuard, Manager, Member, Operator } from '../../auth/graphql-auth.guard';
import { WorkspaceEntity } from '../workspace.entity';
import { WorkspacesService } from '../workspaces.service';
import {
  CreatedKeyType,
  CreatedWorkspaceType,
  CreateWorkspaceInput,
  UpdateWorkspaceSettingsInput,
  WorkspaceType,
} from './workspace.types';

@Resolver(() => WorkspaceType)
@UseGuards(GraphqlAuthGuard)
export class WorkspaceResolver {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Mutation(() => CreatedWorkspaceType, { description: 'Operator only (ADMIN_TOKEN).' })
  createWorkspace(@Operator() _operator: true, @Args('input') input: CreateWorkspaceInput) {
    return this.workspaces.create(input);
  }

  @Query(() => WorkspaceType, { description: 'The workspace of the key making the call.' })
  async workspace(@Member() auth: AuthContext) {
    return this.view(await this.workspaces.get(auth.workspaceId));
  }

  @Mutation(() => WorkspaceType)
  async updateWorkspaceSettings(@Manager() auth: AuthContext, @Args('input') input: UpdateWorkspaceSettingsInput) {
    return this.view(await this.workspaces.updateSettings(auth.workspaceId, input));
  }

  @Mutation(() => CreatedKeyType, { description: 'A new secret key acting as the given member (added as a member when new).' })
  async createKey(@Manager() auth: AuthContext, @Args('member') member: string) {
    const created = await this.workspaces.createKey(auth.workspaceSlug, member);
    return { keyId: created.keyId, memberEmail: created.member.email, secretKey: created.secretKey };
  }

  @Mutation(() => Boolean, { description: 'Removes a member; their keys answer no_longer_a_member from then on.' })
  async removeMember(@Manager() auth: AuthContext, @Args('member') member: string) {
    await this.workspaces.removeMember(auth.workspaceSlug, member);
    return true;
  }

  private view(workspace: WorkspaceEntity): WorkspaceType {
    return { ...workspace, publicBaseUrl: this.workspaces.publicBaseUrl(workspace.publicKey) };
  }
}
