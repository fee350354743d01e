// GraphQL: whether email may go to a person (docs/graphql.md#email-standing): Person.emailStanding, and the
// owners' and admins' lifts of an opt-out or an undeliverable mark.
import { UseGuards } from '@nestjs/common';
import { Args, Context, Field, Mutation, ObjectType, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { PersonType } from '@app/events';
import { EmailStanding, EmailStandingService } from '../email-standing.service';

@ObjectType('EmailOptOut')
class EmailOptOutType {
  @Field() at: Date;
  @Field({ description: 'one_click (the unsubscribe link) or complaint (reported as spam).' }) via: string;
}

@ObjectType('UndeliverableAddress')
class UndeliverableAddressType {
  @Field() address: string;
  @Field({ description: 'When the permanent bounce came.' }) at: Date;
  @Field({ nullable: true, description: 'The message that bounced.' }) messageId?: string;
}

@ObjectType('EmailStanding')
class EmailStandingType {
  @Field(() => EmailOptOutType, {
    nullable: true,
    description: 'Set while the person is opted out: sends are refused opted_out.',
  })
  optOut?: EmailOptOutType | null;
  @Field(() => UndeliverableAddressType, {
    nullable: true,
    description: "Set while the person's address is marked undeliverable: sends are refused undeliverable.",
  })
  undeliverable?: UndeliverableAddressType | null;
}

const view = (s: EmailStanding): EmailStandingType => ({
  optOut: s.optOut,
  undeliverable: s.undeliverable ? { ...s.undeliverable, messageId: s.undeliverable.messageId ?? undefined } : null,
});

@Resolver(() => PersonType)
@UseGuards(GraphqlAuthGuard)
export class EmailStandingResolver {
  constructor(private readonly standing: EmailStandingService) {}

  @ResolveField(() => EmailStandingType, {
    description: 'Whether email may go to the person: an opt-out or an undeliverable address, each null when none.',
  })
  async emailStanding(
    @Parent() person: PersonType & { workspaceId: string },
    @Context() ctx: { loaders?: Loaders },
  ): Promise<EmailStandingType> {
    const rows = await groupedLoader(
      ctx,
      `email-standing:${person.workspaceId}`,
      (ids) => this.standing.rowsOf(person.workspaceId, ids),
      (r) => r.person_id,
    ).load(person.id);
    return view(await this.standing.fromRows(person.workspaceId, { id: person.id, email: person.email ?? null }, rows));
  }

  @Mutation(() => EmailStandingType, {
    description:
      'Owners and admins: lifts the opt-out of a person (record id or email), so email may go to them again; ' +
      "answers the person's standing afterwards.",
  })
  async liftEmailOptOut(@Manager() auth: AuthContext, @Args('person') person: string) {
    return view(await this.standing.lift(auth.workspaceId, person, 'opted_out'));
  }

  @Mutation(() => EmailStandingType, {
    description:
      "Owners and admins: lifts the undeliverable mark of a person's address (record id or email), once it works " +
      "again; answers the person's standing afterwards.",
  })
  async liftUndeliverable(@Manager() auth: AuthContext, @Args('person') person: string) {
    return view(await this.standing.lift(auth.workspaceId, person, 'undeliverable'));
  }
}
