// GraphQL: mailing lists with their subscriber counts (docs/graphql.md#lists).
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { ListRow, ListsService, PeopleQueryService } from '@app/people';
import { Refusal } from '@app/platform';
import { UnsubscribeService } from '../consent/unsubscribe.service';
import { CreateListInput, ListType, UnsubscribeAnswerType } from './people.types';

type ListView = ListType & { workspaceId: string };
const listView = (workspaceId: string, row: ListRow): ListView => ({
  workspaceId,
  id: row.id,
  address: row.address,
  name: row.name,
  doubleOptIn: row.double_opt_in ?? false,
});

@Resolver(() => ListType)
@UseGuards(GraphqlAuthGuard)
export class ListsResolver {
  constructor(
    private readonly lists: ListsService,
    private readonly people: PeopleQueryService,
    private readonly unsubscribes: UnsubscribeService,
  ) {}

  @Query(() => [ListType], { name: 'lists', description: 'Oldest first.' })
  async allLists(@Member() auth: AuthContext) {
    return (await this.lists.list(auth.workspaceId)).map((row) => listView(auth.workspaceId, row));
  }

  @Mutation(() => ListType)
  async createList(@Manager() auth: AuthContext, @Args('input') input: CreateListInput) {
    return listView(auth.workspaceId, await this.lists.create(auth.workspaceId, input));
  }

  @Mutation(() => ListType, { description: 'A new name; the address forms post to stays.' })
  async renameList(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('name') name: string,
  ) {
    return listView(auth.workspaceId, await this.lists.update(auth.workspaceId, id, { name }));
  }

  @Mutation(() => ListType, {
    description:
      'Changes the name or the double opt-in (each left as it is when absent); the address forms post to stays. ' +
      'Turning double opt-in on asks only later subscribers to confirm.',
  })
  async updateList(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('name', { nullable: true }) name?: string,
    @Args('doubleOptIn', { nullable: true }) doubleOptIn?: boolean,
  ) {
    return listView(auth.workspaceId, await this.lists.update(auth.workspaceId, id, { name, doubleOptIn }));
  }

  @Mutation(() => UnsubscribeAnswerType, {
    description:
      'Takes the person off the list (withdrawnVia console): the consent stays, the withdrawal is kept beside it, ' +
      'and the unsubscribed trigger fires.',
  })
  async unsubscribe(
    @Manager() auth: AuthContext,
    @Args('person', { description: 'Record id or email.' }) person: string,
    @Args('list', { type: () => ID, description: "The list's id." }) list: string,
  ) {
    const found = await this.people.byWho(auth.workspaceId, person);
    if (!found)
      throw new Refusal('no_such_person', `No record has the address or id "${person.slice(0, 80)}": check it.`);
    const answer = await this.unsubscribes.unsubscribe(
      auth.workspaceId,
      found.id,
      { listId: list },
      { via: 'console' },
    );
    return { status: answer.status, lists: answer.lists.map((row) => listView(auth.workspaceId, row)) };
  }

  @ResolveField(() => Int, { description: 'People subscribed now.' })
  async subscriberCount(@Parent() list: ListView, @Context() ctx: { loaders?: Loaders }) {
    const load = async (ids: readonly string[]) =>
      [...(await this.lists.subscriberCounts(list.workspaceId, ids))].map(([listId, n]) => ({ listId, n }));
    const [row] = await groupedLoader(ctx, `subscribers:${list.workspaceId}`, load, (r) => r.listId).load(list.id);
    return row?.n ?? 0;
  }
}
