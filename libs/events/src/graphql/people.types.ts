import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { PageInfoType } from '@app/edge';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus, WITHDRAWN_VIA, type WithdrawnVia } from '@app/people';
import GraphQLJSON from './json.scalar';

@ObjectType('Identity')
export class IdentityType {
  @Field() kind: string;
  @Field() value: string;
}

@ObjectType('List')
export class ListType {
  @Field(() => ID) id: string;
  @Field() address: string;
  @Field() name: string;
  @Field({ description: 'A subscribe waits as pending until the person confirms by email.' })
  doubleOptIn: boolean;
}

/** The enums of a subscription's status and of how a withdrawal happened, from the lists people keeps. */
const SubscriptionStatusEnum = Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, s])) as {
  [S in SubscriptionStatus]: S;
};
registerEnumType(SubscriptionStatusEnum, {
  name: 'SubscriptionStatus',
  description: 'pending waits for a double opt-in confirmation.',
});
const WithdrawnViaEnum = Object.fromEntries(WITHDRAWN_VIA.map((v) => [v, v])) as { [V in WithdrawnVia]: V };
registerEnumType(WithdrawnViaEnum, { name: 'WithdrawnVia' });

@ObjectType('Subscription')
export class SubscriptionType {
  @Field(() => ListType) list: ListType;
  @Field(() => SubscriptionStatusEnum) status: SubscriptionStatus;
  @Field({ description: 'The exact consent words, verbatim.' }) consentText: string;
  @Field(() => GraphQLJSON, { description: 'The consent exactly as posted: a string or an object.' }) consent: unknown;
  @Field({ nullable: true }) consentIp?: string;
  @Field() grantedAt: Date;
  @Field({ nullable: true }) sourceLabel?: string;
  @Field({ nullable: true, description: 'When the person came off the list.' }) withdrawnAt?: Date;
  @Field(() => WithdrawnViaEnum, { nullable: true }) withdrawnVia?: WithdrawnVia;
  @Field({ nullable: true, description: 'The address the withdrawal came from, where there was one.' })
  withdrawnIp?: string;
  @Field({ nullable: true, description: "When the person confirmed a double opt-in list's email." })
  confirmedAt?: Date;
  @Field({ nullable: true, description: 'The address the confirmation was posted from.' })
  confirmedIp?: string;
}

@ObjectType('WithdrawalCount')
export class WithdrawalCountType {
  @Field(() => WithdrawnViaEnum) via: WithdrawnVia;
  @Field(() => Int) count: number;
}

@ObjectType('ListWithdrawal', { description: 'Somebody who came off a list, and how.' })
export class ListWithdrawalType {
  @Field(() => ID) person: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) withdrawnAt?: Date;
  @Field(() => WithdrawnViaEnum, { nullable: true }) withdrawnVia?: WithdrawnVia;
}

@ObjectType('UnsubscribeAnswer')
export class UnsubscribeAnswerType {
  @Field({ description: 'unsubscribed, or not_subscribed when the person was on none of the lists.' })
  status: string;
  @Field(() => [ListType], { description: 'The lists the person came off.' }) lists: ListType[];
}

@ObjectType('TimelineEntry')
export class TimelineEntryType {
  @Field(() => ID) id: string;
  @Field() type: string;
  @Field() occurredAt: Date;
  @Field(() => Float, { nullable: true }) value?: number;
  @Field(() => GraphQLJSON, { nullable: true }) properties?: unknown;
  @Field({ nullable: true }) detail?: string;
  @Field(() => GraphQLJSON, { nullable: true }) source?: unknown;
  @Field({ nullable: true }) expiresAt?: Date;
}

@ObjectType('TimelineKind', { description: 'A kind of row on a timeline (an event name, note, stage_changed...).' })
export class TimelineKindType {
  @Field() type: string;
  @Field(() => Int) count: number;
}

@ObjectType('Person')
export class PersonType {
  @Field(() => ID) id: string;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) stage?: string;
  @Field({ nullable: true }) os?: string;
  @Field() engaged: boolean;
  @Field(() => Int) purchases: number;
  @Field(() => GraphQLJSON) fields: unknown;
  @Field(() => GraphQLJSON, { nullable: true }) firstTouch?: unknown;
  @Field() createdAt: Date;
  @Field({
    description: 'When they last did something: an event, a support post, a subscribe or a reply, to the minute.',
  })
  lastSeenAt: Date;
  @Field(() => Float, { description: 'What they paid, as the people list sorts it: payments less refunds.' })
  revenue: number;
}

@ObjectType('EventName')
export class EventNameType {
  @Field() name: string;
  @Field() builtIn: boolean;
}

@ObjectType('HeartbeatRow')
export class HeartbeatRowType {
  @Field() minute: Date;
  @Field() action: string;
  @Field() answer: string;
  @Field() origin: string;
  @Field(() => Int) count: number;
}

@InputType()
export class PeopleFilter {
  @Field({ nullable: true, description: "Any of the person's emails, exactly (any case)." }) email?: string;
  @Field({ nullable: true, description: 'Part of the name, any case.' }) name?: string;
  @Field({ nullable: true }) anonId?: string;
  @Field({ nullable: true }) accountId?: string;
  @Field({ nullable: true, description: 'downloader, activated, account, trial, purchaser, repeat or churned' })
  stage?: string;
  @Field({ nullable: true, description: 'A list address: people subscribed to it now.' }) list?: string;
  @Field({ nullable: true }) engaged?: boolean;
  @Field({ nullable: true, description: 'Part of a name, email, account id or anon id, any case.' }) search?: string;
}

@ObjectType('PersonEdge')
export class PersonEdgeType {
  @Field() cursor: string;
  @Field(() => PersonType) node: PersonType;
}

@ObjectType('PersonConnection')
export class PersonConnectionType {
  @Field(() => [PersonEdgeType]) edges: PersonEdgeType[];
  @Field(() => PageInfoType) pageInfo: PageInfoType;
}

@ObjectType('TimelineEdge')
export class TimelineEdgeType {
  @Field() cursor: string;
  @Field(() => TimelineEntryType) node: TimelineEntryType;
}

@ObjectType('TimelineConnection')
export class TimelineConnectionType {
  @Field(() => [TimelineEdgeType]) edges: TimelineEdgeType[];
  @Field(() => PageInfoType) pageInfo: PageInfoType;
}

@InputType()
export class CreateListInput {
  @Field() address: string;
  @Field() name: string;
  @Field({ nullable: true, description: 'Ask each subscriber to confirm by email (default false).' })
  doubleOptIn?: boolean;
}
