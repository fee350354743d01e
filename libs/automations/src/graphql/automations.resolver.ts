// GraphQL: automations (docs/graphql.md#automations). Owners and admins change them; members read
// them. The start address appears only in createAutomation's answer and in automation(id){address}
// read by an owner or admin: never in the list, a log line or an error.
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, canManage, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { Refusal } from '@app/platform';
import { AutomationRow } from '../automations.repository';
import { AutomationsService } from '../automations.service';
import { RunLogRow } from '../runs.repository';
import {
  AutomationRunType,
  AutomationType,
  CreateAutomationInput,
  CreatedAutomationType,
  UpdateAutomationInput,
} from './automations.types';

const RUNS_SHOWN = { default: 20, max: 100 };

const automationView = (row: AutomationRow, addressShown: string | null = null): AutomationType => ({
  workspaceId: row.workspace_id,
  addressShown,
  id: row.id,
  number: row.number,
  name: row.name,
  status: row.status,
  trigger: row.trigger,
  steps: row.steps,
  passedOverHistory: row.passed_over_history,
  createdAt: new Date(row.created_at),
});

const runView = (row: RunLogRow): AutomationRunType => ({
  id: row.id,
  status: row.state,
  startedAt: new Date(row.created_at),
  finishedAt: row.finished_at ? new Date(row.finished_at) : undefined,
  person: row.person_id ? { id: row.person_id, email: row.person_email, name: row.person_name } : undefined,
  log: row.log.map((entry) => ({ at: new Date(entry.at), line: entry.line })),
  trigger: row.trigger,
  stepCount: row.steps.length,
  stepsDone: Math.min(row.step, row.steps.length),
});

@Resolver(() => AutomationType)
@UseGuards(GraphqlAuthGuard)
export class AutomationsResolver {
  constructor(private readonly service: AutomationsService) {}

  @Mutation(() => CreatedAutomationType, {
    description: 'A new automation is a draft. The address (webhook trigger) is shown here and on automation(id).',
  })
  async createAutomation(@Manager() auth: AuthContext, @Args('input') input: CreateAutomationInput) {
    const { automation, address } = await this.service.create(auth.workspaceId, input);
    return { automation: automationView(automation), address };
  }

  @Mutation(() => AutomationType, {
    description: 'Changes the name, trigger or steps; runs in flight keep the steps they started with.',
  })
  async updateAutomation(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateAutomationInput,
  ) {
    return automationView(await this.service.update(auth.workspaceId, id, input));
  }

  @Mutation(() => AutomationType, { description: 'draft, paused or running; only running automations start runs.' })
  async setAutomationStatus(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('status') status: string,
  ) {
    return automationView(await this.service.setStatus(auth.workspaceId, id, status));
  }

  @Query(() => [AutomationType], { description: 'The workspace automations by number (without their addresses).' })
  async automations(@Member() auth: AuthContext) {
    return (await this.service.list(auth.workspaceId)).map((row) => automationView(row));
  }

  @Query(() => AutomationType)
  async automation(@Member() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    const row = await this.service.get(auth.workspaceId, id);
    return automationView(row, this.service.addressOf(row));
  }

  @ResolveField(() => String, {
    nullable: true,
    description:
      'The start address of a webhook trigger: on automation(id), for owners and admins only; null in the list.',
  })
  address(@Parent() automation: AutomationType, @Member() auth: AuthContext) {
    if (automation.addressShown && !canManage(auth))
      throw new Refusal('forbidden', 'Only workspace owners and admins may see an automation address.');
    return automation.addressShown ?? null;
  }

  @ResolveField(() => [AutomationRunType], {
    description: 'The latest runs (in that status: running, waiting, finished or failed, when given), newest first.',
  })
  async runs(
    @Parent() automation: AutomationType,
    @Context() ctx: { loaders?: Loaders },
    @Args('first', { type: () => Int, nullable: true, defaultValue: RUNS_SHOWN.default }) first: number,
    @Args('status', { type: () => String, nullable: true }) status: string | null,
  ) {
    const shown = Math.min(Math.max(first, 1), RUNS_SHOWN.max);
    const loader = groupedLoader(
      ctx,
      `automation-runs:${automation.workspaceId}:${shown}:${status ?? ''}`,
      (ids) => this.service.runs(automation.workspaceId, ids, shown, status ?? null),
      (row: RunLogRow) => row.automation_id,
    );
    return (await loader.load(automation.id)).map(runView);
  }
}
