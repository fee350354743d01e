// GraphQL: the console's live feed, polled every few seconds: the rows a workspace recorded lately, newest first.
import { UseGuards } from '@nestjs/common';
import { Args, Field, Float, ID, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Member } from '@app/workspaces';
import type { LiveEventRow } from '../timeline-read.repository';
import { TimelineService } from '../timeline.service';

@ObjectType('LiveEventPerson')
export class LiveEventPersonType {
  @Field(() => ID) id: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) name?: string;
}

@ObjectType('LiveEvent')
export class LiveEventType {
  @Field(() => ID) id: string;
  @Field() type: string;
  @Field() occurredAt: Date;
  @Field({ description: 'When the service recorded it (the start of the writing transaction).' }) receivedAt: Date;
  @Field(() => Float, { nullable: true }) value?: number;
  @Field(() => LiveEventPersonType) person: LiveEventPersonType;
}

@ObjectType('LiveEventPage')
export class LiveEventPageType {
  @Field(() => [LiveEventType], { description: 'Newest recorded first (ties by id).' }) events: LiveEventType[];
  @Field({ description: 'Opaque: pass it as after in the next poll.' }) cursor: string;
}

const liveEventView = (r: LiveEventRow): LiveEventType => ({
  id: r.id,
  type: r.type,
  occurredAt: new Date(r.occurred_at),
  receivedAt: new Date(r.received_at),
  value: r.value === null ? undefined : Number(r.value),
  person: { id: r.person_id, email: r.person_email ?? undefined, name: r.person_name ?? undefined },
});

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class LiveEventsResolver {
  constructor(private readonly timelines: TimelineService) {}

  @Query(() => LiveEventPageType, {
    description:
      'Events as they are recorded, newest first, at most `first`: without `after`, those recorded in the last ' +
      '15 minutes; with `after` (the cursor of the previous answer), those recorded since, ' +
      ('and again those of the 10 seconds before it, since a slow transaction can commit rows recorded before a ' +
        'read already answered. Events can come twice: dedupe by id. ') +
      ('When more than `first` were recorded since, only the newest `first` come. Events past their expires_at ' +
        'are left out.'),
  })
  async liveEvents(
    @Member() auth: AuthContext,
    @Args('after', { nullable: true, description: 'The cursor of the previous answer.' }) after?: string,
    @Args('first', { type: () => Int, nullable: true, defaultValue: 50, description: '1 to 100.' })
    first?: number | null,
  ): Promise<LiveEventPageType> {
    const { rows, cursor } = await this.timelines.live(auth.workspaceId, { after, first });
    return { events: rows.map(liveEventView), cursor };
  }
}
