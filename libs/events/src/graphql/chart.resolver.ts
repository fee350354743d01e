// GraphQL: chart(input) exactly as docs/graphql.md#activity-and-charts.
import { UseGuards } from '@nestjs/common';
import { Args, Field, Float, InputType, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Member } from '@app/workspaces';
import { ChartsService } from '../charts/charts.service';

@InputType('ChartInput')
export class ChartInputType {
  @Field({ description: 'A built-in event name, or a custom name this workspace has seen.' }) event: string;
  @Field({ description: 'count (rows), sum_value (sum of value) or people (distinct people).' }) measure: string;
  @Field({ description: 'hour, day, week (from Monday) or month; buckets in UTC.' }) interval: string;
  @Field({ description: 'Inclusive.' }) from: Date;
  @Field({ description: 'Inclusive; at most 1,000 buckets from from.' }) to: Date;
  @Field({ nullable: true, description: "source, medium or campaign of the person's first touch." }) breakdown?: string;
}

@ObjectType('ChartPoint')
class ChartPointType {
  @Field({ description: 'Start of the bucket.' }) at: Date;
  @Field(() => Float) value: number;
}

@ObjectType('ChartSeries')
class ChartSeriesType {
  @Field({ description: 'all without breakdown; else the first-touch value, (none) when absent.' }) key: string;
  @Field(() => [ChartPointType]) points: ChartPointType[];
}

@ObjectType('Chart')
class ChartType {
  @Field(() => [ChartSeriesType]) series: ChartSeriesType[];
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class ChartResolver {
  constructor(private readonly charts: ChartsService) {}

  @Query(() => ChartType, {
    description: 'A question asked of events: every bucket answered, empty ones 0; expired rows not counted.',
  })
  chart(@Member() auth: AuthContext, @Args('input') input: ChartInputType) {
    return this.charts.chart(auth.workspaceId, input);
  }
}
