// GraphQL shapes of outgoing webhooks (docs/graphql.md#webhooks).
import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import type { AttemptRow } from '../deliveries.types';

@ObjectType('DeliveryAttempt', { description: 'One attempt and the answer it received.' })
export class DeliveryAttemptType {
  @Field(() => Int) number: number;
  @Field() startedAt: Date;
  @Field(() => Int, { nullable: true, description: 'The HTTP status of the answer; absent when there was none.' })
  status?: number;
  @Field({ nullable: true, description: 'The first 500 characters of the answer body.' }) bodyExcerpt?: string;
  @Field(() => Int, { nullable: true }) durationMs?: number;
  @Field({ nullable: true, description: 'Why the attempt failed, when it did.' }) error?: string;
}

@ObjectType('DeliveryPerson', { description: 'Who the body named, as it was sent.' })
export class DeliveryPersonType {
  @Field(() => ID, { description: 'The record id in the body (per_test for Send a test).' }) id: string;
  @Field(() => String, { nullable: true }) email: string | null;
  @Field(() => String, { nullable: true }) name: string | null;
}

@ObjectType('Delivery')
export class DeliveryType {
  @Field(() => ID) id: string;
  @Field() endpointId: string;
  @Field() type: string;
  @Field({ description: 'pending, succeeded or failed.' }) state: string;
  @Field(() => Int, { description: 'Attempts made so far.' }) attemptCount: number;
  @Field({ nullable: true }) nextAttemptAt?: Date;
  @Field() createdAt: Date;
  @Field({ description: 'The exact body sent, signed, on every attempt.' }) body: string;
  @Field(() => DeliveryPersonType, {
    nullable: true,
    description: "The body's record as sent; absent when it named nobody (an erased person's body is gone).",
  })
  person: DeliveryPersonType | null;
  workspaceId: string;
  /** Its attempts when read with it (one delivery), else read by the field's loader. */
  attemptRows?: AttemptRow[];
}

@ObjectType('WebhookEndpoint')
export class WebhookEndpointType {
  @Field(() => ID) id: string;
  @Field() url: string;
  @Field(() => [String]) triggers: string[];
  @Field() createdAt: Date;
  @Field({
    nullable: true,
    description: 'When the address was disabled; nothing is sent to it until it is enabled again.',
  })
  disabledAt?: Date;
  @Field({ nullable: true, description: 'Why: 410 Gone, or every delivery failed for days.' }) disabledReason?: string;
  @Field({ nullable: true, description: 'The last successful attempt.' }) lastSuccessAt?: Date;
  @Field(() => Int, { nullable: true, description: 'At most this many posts per second; absent: no limit.' })
  rateLimitPerSecond?: number;
  workspaceId: string;
}

@ObjectType('CreatedWebhookEndpoint')
export class CreatedWebhookEndpointType {
  @Field(() => WebhookEndpointType) endpoint: WebhookEndpointType;
  @Field({ description: 'Shown once: the key of the X-Service-Signature HMAC.' }) secret: string;
}

@ObjectType('RotatedWebhookSecret')
export class RotatedWebhookSecretType {
  @Field({ description: 'Shown once. The previous secret keeps signing beside it for 24 hours.' }) secret: string;
}

@InputType()
export class CreateWebhookEndpointInput {
  @Field() url: string;
  @Field(() => [String]) triggers: string[];
  @Field(() => Int, {
    nullable: true,
    description: 'At most this many posts per second (1 to 10,000); absent: no limit.',
  })
  rateLimitPerSecond?: number;
}

@InputType()
export class UpdateWebhookEndpointInput {
  @Field({ nullable: true }) url?: string;
  @Field(() => [String], { nullable: true }) triggers?: string[];
  @Field(() => Int, { nullable: true, description: 'A new limit; null removes it; absent keeps it.' })
  rateLimitPerSecond?: number | null;
}
