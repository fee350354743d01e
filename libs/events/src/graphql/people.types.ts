import { Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
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
}

@ObjectType('Subscription')
export class SubscriptionType {
  @Field(() => ListType) list: ListType;
  @Field() status: string;
  @Field({ description: 'The exact consent words, verbatim.' }) consentText: string;
  @Field(() => GraphQLJSON, { description: 'The consent exactly as posted: a string or an object.' }) consent: unknown;
  @Field({ nullable: true }) consentIp?: string;
  @Field() grantedAt: Date;
  @Field({ nullable: true }) sourceLabel?: string;
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
  @Field({ nullable: true }) stage?: string;
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) engaged?: boolean;
  @Field(() => Int, { nullable: true, defaultValue: 50 }) first?: number;
}

@InputType()
export class CreateListInput {
  @Field() address: string;
  @Field() name: string;
}
