// GraphQL: a person's data on request (docs/graphql.md#people): the export, the erasure and lifting a
// suppression. The same PersonDataService as REST, the CLI and the tool door.
import { UseGuards } from '@nestjs/common';
import { Args, Field, Int, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { PersonDataService } from '@app/people';
import GraphQLJSON from './json.scalar';

@ObjectType('ErasedTable')
class ErasedTableType {
  @Field() table: string;
  @Field(() => Int, { description: 'Rows removed, or for deliveries (kept as sent) and outbox happenings, redacted.' })
  rows: number;
}

@ObjectType('Erasure', {
  description: "An erasure's proof: the erasure log's line names no one, only a hash of the record id.",
})
class ErasureType {
  @Field({ description: 'The erasure log id (era_…).' }) id: string;
  @Field() erasedAt: Date;
  @Field(() => [ErasedTableType], {
    description: 'Every table with a part of the person, and how many rows went from it.',
  })
  tables: ErasedTableType[];
  @Field(() => Int, {
    description:
      'Identity keys now on the suppression list: a later post naming one answers suppressed and writes nothing.',
  })
  suppressedKeys: number;
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class PersonDataResolver {
  constructor(private readonly personData: PersonDataService) {}

  @Query(() => GraphQLJSON, {
    description:
      'Everything held about the person (record id or email): record, identities, consent, timeline, messages, ' +
      'automation runs and the deliveries that named them. ' +
      'At most 10,000 rows here; GET /api/v1/people/{who}/export streams any number.',
  })
  personExport(@Member() auth: AuthContext, @Args('person', { description: 'Record id or email.' }) person: string) {
    return this.personData.exportDocument(auth.workspaceId, person);
  }

  @Mutation(() => ErasureType, {
    description:
      'Erases the person (record id or email), everyone merged into them and every row that names them; their ' +
      'identities go on the suppression list. Owners and admins.',
  })
  erasePerson(@Manager() auth: AuthContext, @Args('person', { description: 'Record id or email.' }) person: string) {
    return this.personData.erase(auth, person);
  }

  @Mutation(() => Boolean, {
    description:
      'Takes one identity off the suppression list, so posts naming it are recorded again. Owners only; false ' +
      'when it was not on the list.',
  })
  liftSuppression(
    @Member() auth: AuthContext,
    @Args('kind', { description: 'email, anon_id or account_id.' }) kind: string,
    @Args('value') value: string,
  ) {
    return this.personData.lift(auth, kind, value);
  }
}
