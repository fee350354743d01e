// GraphQL: the workspace at a glance (docs/graphql.md#the-workspace-at-a-glance), for the console's home page,
// and the names done most often, which the chart page opens on.
import { UseGuards } from '@nestjs/common';
import { Args, Field, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Member } from '@app/workspaces';
import { FREQUENT_EVENTS, OverviewService } from '../overview/overview.service';

@ObjectType('StageTally')
class StageTallyType {
  @Field(() => String, { nullable: true, description: 'The stage; null for people with none yet.' })
  stage: string | null;
  @Field(() => Int) people: number;
}

@ObjectType('DayTally')
class DayTallyType {
  @Field(() => Int, { description: 'Since midnight (UTC) today, up to now.' }) today: number;
  @Field(() => Int, { description: 'Yesterday from midnight (UTC) up to the same time of day as now.' })
  yesterday: number;
}

@ObjectType('WorkspaceOverview')
class WorkspaceOverviewType {
  @Field({ description: 'When it was counted.' }) at: Date;
  @Field(() => [StageTallyType], { description: 'People (merged-away records aside) per stage, most first.' })
  stages: StageTallyType[];
  @Field(() => Int, { description: 'People who bought, signed up, wrote in, replied or joined a list.' })
  engaged: number;
  @Field(() => DayTallyType, { description: 'People first seen (their earliest event) in each span.' })
  newPeople: DayTallyType;
  @Field(() => DayTallyType, {
    description: "Events (what people did: the service's own timeline kinds and expired rows left out) in each span.",
  })
  events: DayTallyType;
}

@ObjectType('EventTally')
class EventTallyType {
  @Field() name: string;
  @Field(() => Int) count: number;
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class OverviewResolver {
  constructor(private readonly overviews: OverviewService) {}

  @Query(() => WorkspaceOverviewType, {
    description: 'People by stage, the engaged, and new people and events today against yesterday at the same time.',
  })
  async workspaceOverview(@Member() auth: AuthContext) {
    const overview = await this.overviews.overview(auth.workspaceId);
    return { ...overview, stages: [...overview.stages].sort((a, b) => b.people - a.people) };
  }

  @Query(() => [EventTallyType], {
    description: "The names done most often over the last days, most first; the service's own timeline kinds left out.",
  })
  frequentEvents(
    @Member() auth: AuthContext,
    @Args('days', { type: () => Int, nullable: true, defaultValue: FREQUENT_EVENTS.days.default }) days: number,
    @Args('first', { type: () => Int, nullable: true, defaultValue: FREQUENT_EVENTS.first.default }) first: number,
  ) {
    return this.overviews.frequentEvents(auth.workspaceId, days, first);
  }
}
