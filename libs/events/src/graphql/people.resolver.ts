// GraphQL: people, their timelines, identities and subscriptions, and notes (docs/graphql.md#people).
// Reads go through PeopleQueryService and TimelineService, as the MCP tools do.
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { PEOPLE_SORTS, peopleSort, PeopleCount, PeopleQueryService, PersonFilter, PersonRow } from '@app/people';
import type { TimelineRow } from '../timeline.repository';
import { TimelineService } from '../timeline.service';
import { SegmentsService } from '../segments/segments.service';
import {
  IdentityType,
  PeopleFilter,
  PersonConnectionType,
  PersonType,
  SubscriptionType,
  TimelineConnectionType,
  TimelineEntryType,
  TimelineKindType,
} from './people.types';

type PersonView = PersonType & { workspaceId: string };
type ConnectionView = PersonConnectionType & { workspaceId: string; filter: PersonFilter };
type CountContext = { peopleCounts?: Map<string, Promise<PeopleCount>> };

export function personView(row: PersonRow): PersonView {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    name: row.name ?? undefined,
    email: row.email ?? undefined,
    stage: row.stage ?? undefined,
    os: row.os ?? undefined,
    engaged: !!row.engaged_at,
    purchases: row.purchases,
    fields: row.fields,
    firstTouch: row.first_touch ?? undefined,
    createdAt: new Date(row.created_at),
    lastSeenAt: new Date(row.last_seen_at ?? row.created_at),
    revenue: Number(row.revenue),
  };
}

/** A timeline row as the API answers it; its workspace goes with it for the fields resolved per row. */
export function timelineEntryView(r: TimelineRow): TimelineEntryType & { workspaceId: string } {
  return {
    workspaceId: r.workspace_id,
    id: r.id,
    type: r.type,
    occurredAt: new Date(r.occurred_at),
    value: r.value === null ? undefined : Number(r.value),
    properties: r.properties ?? undefined,
    detail: r.detail ?? undefined,
    source: r.source ?? undefined,
    expiresAt: r.expires_at ? new Date(r.expires_at) : undefined,
  };
}

@Resolver(() => PersonType)
@UseGuards(GraphqlAuthGuard)
export class PeopleResolver {
  constructor(
    private readonly people: PeopleQueryService,
    private readonly timelines: TimelineService,
    private readonly segments: SegmentsService,
  ) {}

  @Query(() => PersonType, { nullable: true, description: 'A person by record id or email.' })
  async person(
    @Member() auth: AuthContext,
    @Args('id', { nullable: true }) id?: string,
    @Args('email', { nullable: true }) email?: string,
  ) {
    const row = await this.people.get(auth.workspaceId, { id, email });
    return row ? personView(row) : null;
  }

  @Query(() => PersonConnectionType, {
    name: 'people',
    description: 'Newest first unless sorted; first is 1 to 100 (default 50); after is read in the same order.',
  })
  async findPeople(
    @Member() auth: AuthContext,
    @Args('filter', { nullable: true }) filter?: PeopleFilter,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
    @Args('segment', { type: () => ID, nullable: true, description: "Only the segment's members." }) segment?: string,
    @Args('sort', { nullable: true, description: `${PEOPLE_SORTS.join(', ')} (default created).` }) sort?: string,
    @Args('direction', { nullable: true, description: 'desc (default) or asc.' }) direction?: string,
  ): Promise<ConnectionView> {
    const order = peopleSort(sort, direction);
    const among = segment ? await this.segments.inSegment(auth.workspaceId, segment) : undefined;
    const asked: PersonFilter = { ...(filter ?? {}), ...(among ? { among } : {}) };
    const page = await this.people.find(auth.workspaceId, { filter: asked, first, after, sort: order });
    const edges = page.edges.map((e) => ({ cursor: e.cursor, node: personView(e.node) }));
    return { workspaceId: auth.workspaceId, filter: asked, edges, pageInfo: page.pageInfo };
  }

  @Mutation(() => TimelineEntryType, {
    description: "A note on the person's timeline (kind note): it moves no stage and fires nothing.",
  })
  async addNote(
    @Manager() auth: AuthContext,
    @Args('person', { description: 'Record id or email.' }) person: string,
    @Args('text') text: string,
  ) {
    return timelineEntryView(await this.timelines.addNote(auth.workspaceId, auth.memberEmail, person, text));
  }

  @ResolveField(() => [IdentityType])
  identities(@Parent() person: PersonView, @Context() ctx: { loaders?: Loaders }) {
    const name = `identities:${person.workspaceId}`;
    return groupedLoader(
      ctx,
      name,
      (ids) => this.people.identitiesOf(person.workspaceId, ids),
      (r) => r.person_id,
    ).load(person.id);
  }

  @ResolveField(() => [SubscriptionType], {
    description: 'With the consent words exactly as posted, the IP and the time.',
  })
  async subscriptions(@Parent() person: PersonView, @Context() ctx: { loaders?: Loaders }) {
    const name = `subscriptions:${person.workspaceId}`;
    const rows = await groupedLoader(
      ctx,
      name,
      (ids) => this.people.subscriptionsOf(person.workspaceId, ids),
      (r) => r.person_id,
    ).load(person.id);
    return rows.map((s) => ({
      list: {
        workspaceId: person.workspaceId,
        id: s.list_id,
        address: s.address,
        name: s.name,
        doubleOptIn: s.double_opt_in,
      },
      status: s.status,
      consentText: s.consent_text,
      consent: s.consent,
      consentIp: s.consent_ip ?? undefined,
      grantedAt: s.granted_at,
      sourceLabel: s.source_label ?? undefined,
      withdrawnAt: s.withdrawn_at ?? undefined,
      withdrawnVia: s.withdrawn_via ?? undefined,
      withdrawnIp: s.withdrawn_ip ?? undefined,
      confirmedAt: s.confirmed_at ?? undefined,
      confirmedIp: s.confirmed_ip ?? undefined,
    }));
  }

  @ResolveField(() => [TimelineKindType], {
    description: 'The kinds on the timeline and how many of each, the most frequent first.',
  })
  timelineKinds(@Parent() person: PersonView, @Context() ctx: { loaders?: Loaders }) {
    const name = `timeline-kinds:${person.workspaceId}`;
    return groupedLoader(
      ctx,
      name,
      (ids) => this.timelines.kindsOf(person.workspaceId, ids),
      (r) => r.person_id,
    ).load(person.id);
  }

  @ResolveField(() => TimelineConnectionType, {
    description: 'Newest first; first is 1 to 100 (default 50); types keeps only those kinds.',
  })
  async timeline(
    @Parent() person: PersonView,
    @Context() ctx: { loaders?: Loaders },
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
    @Args('types', { type: () => [String], nullable: true }) types?: string[],
  ) {
    const input = { first, after, types };
    const name = `timeline:${person.workspaceId}:${JSON.stringify(input)}`;
    const rows = await groupedLoader(
      ctx,
      name,
      (ids) => this.timelines.rowsOf(person.workspaceId, ids, input),
      (r) => r.person_id,
    ).load(person.id);
    const page = this.timelines.page(rows, input);
    return {
      edges: page.edges.map((e) => ({ cursor: e.cursor, node: timelineEntryView(e.node) })),
      pageInfo: page.pageInfo,
    };
  }
}

@Resolver(() => PersonConnectionType)
@UseGuards(GraphqlAuthGuard)
export class PersonConnectionResolver {
  constructor(private readonly people: PeopleQueryService) {}

  @ResolveField(() => Int, {
    description: 'How many match, counted up to 10,000 (then 10,000 and totalCountExact false).',
  })
  async totalCount(@Parent() connection: ConnectionView, @Context() ctx: CountContext) {
    return (await this.countOnce(connection, ctx)).count;
  }

  @ResolveField(() => Boolean)
  async totalCountExact(@Parent() connection: ConnectionView, @Context() ctx: CountContext) {
    return (await this.countOnce(connection, ctx)).exact;
  }

  /** totalCount and totalCountExact of one connection share one count. */
  private countOnce(connection: ConnectionView, ctx: CountContext): Promise<PeopleCount> {
    ctx.peopleCounts ??= new Map();
    const key = `${connection.workspaceId}:${JSON.stringify(connection.filter)}`;
    let count = ctx.peopleCounts.get(key);
    if (!count) ctx.peopleCounts.set(key, (count = this.people.count(connection.workspaceId, connection.filter)));
    return count;
  }
}
