// GraphQL: the limits the operator sets (docs/graphql.md#limits) and how close each key came to them.
import { UseGuards } from '@nestjs/common';
import { Args, Int, Mutation, ResolveField, Resolver } from '@nestjs/graphql';
import type { AuthContext } from '../auth/auth-context';
import { GraphqlAuthGuard, Member, Operator } from '../auth/graphql-auth.guard';
import { WorkspaceType } from '../graphql/workspace.types';
import { WorkspacesRepository } from '../workspaces.repository';
import { WorkspaceLimitsService } from './workspace-limits.service';
import { LimitUsageType, WorkspaceLimitType } from './workspace-limits.types';

@Resolver(() => WorkspaceType)
@UseGuards(GraphqlAuthGuard)
export class WorkspaceLimitsResolver {
  constructor(
    private readonly service: WorkspaceLimitsService,
    private readonly workspaces: WorkspacesRepository,
  ) {}

  @Mutation(() => [WorkspaceLimitType], {
    description: "Operator only (ADMIN_TOKEN): the workspace's figure for one limit, from its next post.",
  })
  setWorkspaceLimit(
    @Operator() _operator: true,
    @Args('workspace', { description: 'The workspace id or slug.' }) workspace: string,
    @Args('limit') limit: string,
    @Args('perTenMinutes', { type: () => Int }) perTenMinutes: number,
  ): Promise<WorkspaceLimitType[]> {
    return this.service.set(workspace, limit, perTenMinutes);
  }

  @Mutation(() => [WorkspaceLimitType], {
    description: "Operator only (ADMIN_TOKEN): the limit goes back to the deployment's default.",
  })
  resetWorkspaceLimit(
    @Operator() _operator: true,
    @Args('workspace', { description: 'The workspace id or slug.' }) workspace: string,
    @Args('limit') limit: string,
  ): Promise<WorkspaceLimitType[]> {
    return this.service.reset(workspace, limit);
  }

  @ResolveField(() => [WorkspaceLimitType], { description: 'Every rate limit the operator may move, as it is now.' })
  limits(@Member() auth: AuthContext): Promise<WorkspaceLimitType[]> {
    return this.service.list(auth.workspaceId); // the caller's own workspace, whatever the parent
  }

  @ResolveField(() => [LimitUsageType], {
    description: 'For each key and limit posted to in the last day, its fullest ten-minute window, fullest first.',
  })
  async limitUsage(@Member() auth: AuthContext): Promise<LimitUsageType[]> {
    const [peaks, keys] = await Promise.all([
      this.service.peaks(auth.workspaceId),
      this.workspaces.listKeys(auth.workspaceId),
    ]);
    const hints = new Map(keys.map((k) => [k.id, `sk_live_…${k.hint}`]));
    return peaks
      .map((p) => ({
        limit: p.limit,
        key: p.key,
        keyHint: hints.get(p.key),
        used: p.used,
        perTenMinutes: p.bound,
        share: p.bound > 0 ? p.used / p.bound : 0,
        refused: p.refused,
        at: p.at,
      }))
      .sort((a, b) => b.share - a.share || a.limit.localeCompare(b.limit));
  }
}
