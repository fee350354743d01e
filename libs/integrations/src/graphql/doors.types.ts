// GraphQL shapes of the third-party doors (docs/rest.md#third-party-doors).
import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('DoorReceipt', { description: 'One verified post the door answered; never its body.' })
export class DoorReceiptType {
  @Field() at: Date;
  @Field({
    description:
      "The provider's id of the event or delivery (Stripe evt_, svix-id, Kinde event_id, X-GitHub-Delivery).",
  })
  eventId: string;
  @Field({
    nullable: true,
    description: "The provider's event type, e.g. checkout.session.completed or sponsorship.created.",
  })
  type?: string;
  @Field({ description: 'recorded, ignored, or the refusal code answered.' }) answer: string;
  @Field(() => Int, { description: 'The HTTP status answered.' }) httpStatus: number;
}

@ObjectType('Door')
export class DoorType {
  @Field(() => ID) id: string;
  @Field({ description: 'payment, auth_a, auth_b or hosting.' }) kind: string;
  @Field() createdAt: Date;
  @Field({ nullable: true, description: 'auth_b: the domain whose key set signs the posts.' }) domain?: string;
  @Field({ description: 'hosting: stars become github_star events.' }) stars: boolean;
  workspaceId: string;
}

@ObjectType('ConnectedDoor')
export class ConnectedDoorType {
  @Field(() => DoorType) door: DoorType;
  @Field({ description: "Shown once: the address to paste into the provider's webhook settings." }) address: string;
}

@InputType()
export class ConnectDoorInput {
  @Field({ description: 'payment (Stripe), auth_a (Clerk), auth_b (Kinde) or hosting (GitHub).' }) kind: string;
  @Field({
    nullable: true,
    description: 'payment, auth_a, hosting: the signing secret the provider shows; stored encrypted.',
  })
  secret?: string;
  @Field({ nullable: true, description: 'auth_b only: the Kinde host name, like acme.kinde.com.' }) domain?: string;
  @Field({ nullable: true, description: 'hosting only: post github_star for stars.' }) stars?: boolean;
}
