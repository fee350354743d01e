// GraphQL: funnel(input) and retention(input) exactly as docs/graphql.md#funnels-and-retention.
import { UseGuards } from '@nestjs/common';
import { Args, Field, Float, ID, InputType, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Member } from '@app/workspaces';
import { FunnelsService } from '../charts/funnels.service';

const SEGMENT = 'Only people who are members of this segment now.';

@InputType('FunnelInput')
export class FunnelInputType {
  @Field(() => [String], { description: '2 to 10 event names (built in, or custom names seen), in order.' })
  steps: string[];
  @Field(() => Int, { nullable: true, description: 'Later steps at most this many days after step 1 (1 to 366).' })
  withinDays?: number;
  @Field({ description: 'Step 1 at or after this.' }) from: Date;
  @Field({ description: 'Step 1 before this (exclusive).' }) to: Date;
  @Field(() => ID, { nullable: true, description: SEGMENT }) segment?: string;
}

@ObjectType('FunnelStep')
class FunnelStepType {
  @Field() event: string;
  @Field(() => Int, { description: 'People who did every step up to this one, in order.' }) people: number;
  @Field(() => Float, { description: "people / step 1's people: 1 for step 1, 0 when step 1 has nobody." })
  conversion: number;
}

@ObjectType('Funnel')
class FunnelType {
  @Field(() => [FunnelStepType]) steps: FunnelStepType[];
}

@InputType('RetentionInput')
export class RetentionInputType {
  @Field({ description: "The event whose first time puts a person in a cohort (that period's)." }) start: string;
  @Field({ description: 'The event that counts as coming back.' }) back: string;
  @Field({ nullable: true, description: 'day, week (from Monday) or month, in UTC; week when absent.' })
  interval?: string;
  @Field(() => Int, { nullable: true, description: 'How many periods up to now: 1 to 52, 8 when absent.' })
  periods?: number;
  @Field(() => ID, { nullable: true, description: SEGMENT }) segment?: string;
}

@ObjectType('RetentionCohort')
class RetentionCohortType {
  @Field({ description: 'Start of the period of its people’s first start event.' }) start: Date;
  @Field(() => Int) people: number;
  @Field(() => [Float], {
    description: 'Per period from the cohort’s own to now: the share who did back in it (the first is 1).',
  })
  shares: number[];
}

@ObjectType('Retention')
class RetentionType {
  @Field(() => [RetentionCohortType], { description: 'Oldest first; the last is the period holding now.' })
  cohorts: RetentionCohortType[];
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class FunnelResolver {
  constructor(private readonly funnels: FunnelsService) {}

  @Query(() => FunnelType, { description: 'How many people did the steps in order, and their share of step 1.' })
  funnel(@Member() auth: AuthContext, @Args('input') input: FunnelInputType) {
    return this.funnels.funnel(auth.workspaceId, input);
  }

  @Query(() => RetentionType, { description: 'Cohorts by first start event, and the share who came back per period.' })
  retention(@Member() auth: AuthContext, @Args('input') input: RetentionInputType) {
    return this.funnels.retention(auth.workspaceId, input);
  }
}
