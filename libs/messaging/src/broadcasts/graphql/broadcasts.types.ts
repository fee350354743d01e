// GraphQL types of broadcasts (docs/graphql.md#broadcasts).
import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { PageInfoType } from '@app/edge';

@ObjectType('BroadcastSkip', { description: 'Recipients skipped for one reason, when their turn came.' })
export class BroadcastSkipType {
  @Field({
    description:
      'unsubscribed (left the list), left_segment, no_email, not_engaged, opted_out, undeliverable, erased, or ' +
      'merged (their record merged into another, which gets its own email when in the audience).',
  })
  reason: string;
  @Field(() => Int) count: number;
}

@ObjectType('BroadcastRecipient', { description: 'One person of the audience, and what happened, when.' })
export class BroadcastRecipientType {
  @Field(() => ID) personId: string;
  @Field({ description: 'queued, sending, sent, failed, skipped or cancelled.' }) state: string;
  @Field(() => String, {
    nullable: true,
    description: "A skip's reason, a failure's error, or a transient error before the next attempt.",
  })
  reason: string | null;
  @Field(() => Int, { description: 'Sends begun.' }) attempts: number;
  @Field(() => ID, { nullable: true, description: "The message on the person's timeline, once the send began." })
  messageId: string | null;
  @Field(() => Date, { nullable: true }) sentAt: Date | null;
  @Field({ description: 'When its state last changed.' }) updatedAt: Date;
}

@ObjectType('BroadcastRecipientEdge')
export class BroadcastRecipientEdgeType {
  @Field() cursor: string;
  @Field(() => BroadcastRecipientType) node: BroadcastRecipientType;
}

@ObjectType('BroadcastRecipientConnection')
export class BroadcastRecipientConnectionType {
  @Field(() => [BroadcastRecipientEdgeType]) edges: BroadcastRecipientEdgeType[];
  @Field(() => PageInfoType) pageInfo: PageInfoType;
}

@ObjectType('Broadcast', { description: 'One email to a list or a segment, sent once to each person.' })
export class BroadcastType {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field({ description: 'draft, scheduled, sending, paused, sent or cancelled.' }) state: string;
  @Field(() => String, { nullable: true, description: "The list's address, for a broadcast to a list." })
  list: string | null;
  @Field(() => ID, { nullable: true, description: "The segment's id, for a broadcast to a segment." })
  segment: string | null;
  @Field(() => ID, { nullable: true, description: "The template's id, when made from one." })
  template: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The subject (a template's override until sending starts; then the one every email fills in).",
  })
  subject: string | null;
  @Field(() => String, { nullable: true, description: 'The body, Markdown with Liquid, as subject.' })
  body: string | null;
  @Field(() => Date, { nullable: true }) scheduledAt: Date | null;
  @Field(() => Date, { nullable: true }) startedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was sent to the last recipient, or cancelled.' })
  finishedAt: Date | null;
  @Field(() => Int, { nullable: true, description: 'Recipients fixed when sending started; null before.' })
  audience: number | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}

@ObjectType('BroadcastEdge')
export class BroadcastEdgeType {
  @Field() cursor: string;
  @Field(() => BroadcastType) node: BroadcastType;
}

@ObjectType('BroadcastConnection')
export class BroadcastConnectionType {
  @Field(() => [BroadcastEdgeType]) edges: BroadcastEdgeType[];
  @Field(() => PageInfoType) pageInfo: PageInfoType;
}

@InputType()
export class CreateBroadcastInput {
  @Field({ description: '1 to 120 characters.' }) name: string;
  @Field({ nullable: true, description: "A list's address: its subscribers. Exactly one of list and segment." })
  list?: string;
  @Field(() => ID, { nullable: true, description: "A segment's id: its members." })
  segment?: string;
  @Field({ nullable: true, description: "A template's id or name; subject and body, when given, override its own." })
  template?: string;
  @Field({ nullable: true, description: '2 to 200 characters; required without a template.' }) subject?: string;
  @Field({
    nullable: true,
    description: 'Markdown with Liquid variables, 2 to 20,000 characters; required without a template.',
  })
  body?: string;
}

@InputType({ description: 'Each field absent stays; naming list or segment replaces the audience.' })
export class UpdateBroadcastInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) list?: string;
  @Field(() => ID, { nullable: true }) segment?: string;
  @Field({ nullable: true }) template?: string;
  @Field({ nullable: true }) subject?: string;
  @Field({ nullable: true }) body?: string;
}
