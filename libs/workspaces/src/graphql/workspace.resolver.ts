import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthContext } from '../auth/auth-context';
import { GraphqlAuthGuard, Manager, Member, Operator } from '../auth/graphql-auth.guard';
import type { WorkspaceEntity } from '../workspaces.types';
import { WorkspacesService } from '../workspaces.service';
import {
  CreatedWorkspaceType,
  CreateWorkspaceInput,
  UpdateWorkspaceSettingsInput,
  WorkspaceSummaryType,
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

  @Query(() => [WorkspaceSummaryType], {
    name: 'workspaces',
    description: 'Every workspace of the deployment, as the CLI lists them. Operator only (ADMIN_TOKEN).',
  })
  allWorkspaces(@Operator() _operator: true): Promise<WorkspaceSummaryType[]> {
    return this.workspaces.list();
  }

  @Query(() => WorkspaceType, { description: 'The workspace of the key making the call.' })
  async workspace(@Member() auth: AuthContext) {
    return this.view(await this.workspaces.get(auth.workspaceId));
  }

  @Mutation(() => WorkspaceType)
  async updateWorkspaceSettings(@Manager() auth: AuthContext, @Args('input') input: UpdateWorkspaceSettingsInput) {
    return this.view(await this.workspaces.updateSettings(auth.workspaceId, input));
  }

  private view(workspace: WorkspaceEntity): WorkspaceType {
    return { ...workspace, publicBaseUrl: this.workspaces.publicBaseUrl(workspace.publicKey) };
  }
}
