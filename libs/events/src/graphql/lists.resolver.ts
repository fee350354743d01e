// GraphQL: mailing lists with their subscriber counts (docs/graphql.md#lists).
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { ListCounts, ListRow, ListsService, PeopleQueryService, WITHDRAWN_VIA } from '@app/people';
import { Refusal } from '@app/platform';
import { UnsubscribeService } from '../consent/unsubscribe.service';
import {
  CreateListInput,
  ListType,
  ListWithdrawalType,
  UnsubscribeAnswerType,
  WithdrawalCountType,
} from './people.types';

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
    return (await this.countsOf(list, ctx)).subscribed;
  }

  @ResolveField(() => Int, { description: 'People who subscribed and have not confirmed yet (double opt-in).' })
  async pendingCount(@Parent() list: ListView, @Context() ctx: { loaders?: Loaders }) {
    return (await this.countsOf(list, ctx)).pending;
  }

  @ResolveField(() => Int, { description: 'People who came off the list.' })
  async unsubscribedCount(@Parent() list: ListView, @Context() ctx: { loaders?: Loaders }) {
    return (await this.countsOf(list, ctx)).unsubscribed;
  }

  @ResolveField(() => [WithdrawalCountType], { description: 'Those who came off the list, by how; none left out.' })
  async withdrawnBy(@Parent() list: ListView, @Context() ctx: { loaders?: Loaders }) {
    const { withdrawnBy } = await this.countsOf(list, ctx);
    return WITHDRAWN_VIA.map((via) => ({ via, count: withdrawnBy[via] ?? 0 }));
  }

  @ResolveField(() => [ListWithdrawalType], { description: 'The latest to come off the list, newest first.' })
  async withdrawals(
    @Parent() list: ListView,
    @Args('first', { type: () => Int, nullable: true, description: '1 to 100, default 20.' }) first?: number,
  ) {
    return (await this.lists.withdrawals(list.workspaceId, list.id, first)).map((w) => ({
      person: w.person_id,
      email: w.email ?? undefined,
      name: w.name ?? undefined,
      withdrawnAt: w.withdrawn_at ?? undefined,
      withdrawnVia: w.withdrawn_via ?? undefined,
    }));
  }

  /** One statement for every list of the query. */
  private async countsOf(list: ListView, ctx: { loaders?: Loaders }): Promise<ListCounts> {
    const load = (ids: readonly string[]) => this.lists.counts(list.workspaceId, ids);
    const [row] = await groupedLoader(ctx, `list-counts:${list.workspaceId}`, load, (r) => r.listId).load(list.id);
    return row ?? { listId: list.id, subscribed: 0, pending: 0, unsubscribed: 0, withdrawnBy: {} };
  }
}
