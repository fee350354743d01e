// GraphQL reads of what the events endpoint writes (decisions.md section 9), and createList.
import { UseGuards } from '@nestjs/common';
import { Args, Context, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, groupedLoader, Loaders, Manager, Member, newId, Refusal } from '@app/core';
import { PeopleReadRepository, PeopleRepository, PersonRow } from '@app/people';
import { BUILT_IN_EVENTS } from '../domain';
import { HeartbeatService } from '../heartbeat.service';
import { TimelineRepository } from '../timeline.repository';
import {
  CreateListInput,
  EventNameType,
  HeartbeatRowType,
  IdentityType,
  ListType,
  PeopleFilter,
  PersonType,
  SubscriptionType,
  TimelineEntryType,
} from './people.types';

type PersonView = PersonType & { workspaceId: string };

const WEEK_MS = 7 * 24 * 3600 * 1000;

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
  };
}

function loader<T extends { person_id: string }>(ctx: { loaders?: Loaders }, name: string, workspaceId: string, load: (ids: readonly string[]) => Promise<T[]>) {
  return groupedLoader(ctx, `${name}:${workspaceId}`, load, (row) => row.person_id);
}

@Resolver(() => PersonType)
@UseGuards(GraphqlAuthGuard)
export class PeopleResolver {
  constructor(
    private readonly read: PeopleReadRepository,
    private readonly peopleRepository: PeopleRepository,
    private readonly timelineRepository: TimelineRepository,
    private readonly heartbeatService: HeartbeatService,
  ) {}

  @Query(() => PersonType, { nullable: true, description: 'A person by record id or email.' })
  async person(@Member() auth: AuthContext, @Args('id', { nullable: true }) id?: string, @Args('email', { nullable: true }) email?: string) {
    if (!id && !email) throw new Refusal('invalid_field', 'Name the person with id or email.');
    const row = id ? await this.read.byId(auth.workspaceId, id) : await this.read.byEmail(auth.workspaceId, email!);
    return row ? personView(row) : null;
  }

  @Query(() => [PersonType])
  async people(@Member() auth: AuthContext, @Args('filter', { nullable: true }) filter?: PeopleFilter) {
    const rows = await this.read.list(auth.workspaceId, { ...filter, first: filter?.first ?? 50 });
    return rows.map(personView);
  }

  @ResolveField(() => [IdentityType])
  identities(@Parent() person: PersonView, @Context() ctx: { loaders?: Loaders }) {
    return loader(ctx, 'identities', person.workspaceId, (ids) => this.read.identitiesOf(person.workspaceId, ids)).load(person.id);
  }

  @ResolveField(() => [SubscriptionType])
  async subscriptions(@Parent() person: PersonView, @Context() ctx: { loaders?: Loaders }) {
    const rows = await loader(ctx, 'subscriptions', person.workspaceId, (ids) => this.read.subscriptionsOf(person.workspaceId, ids)).load(person.id);
    return rows.map((s) => ({
      list: { id: s.list_id, address: s.address, name: s.name },
      status: s.status,
      consentText: s.consent_text,
      consent: s.consent,
      consentIp: s.consent_ip ?? undefined,
      grantedAt: s.granted_at,
      sourceLabel: s.source_label ?? undefined,
    }));
  }

  @ResolveField(() => [TimelineEntryType], { description: 'Newest first.' })
  async timeline(@Parent() person: PersonView, @Args('first', { type: () => Int, defaultValue: 100 }) first: number) {
    const rows = await this.timelineRepository.timeline(person.workspaceId, person.id, Math.min(Math.max(first, 1), 500));
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      occurredAt: new Date(r.occurred_at),
      value: r.value === null ? undefined : Number(r.value),
      properties: r.properties ?? undefined,
      detail: r.detail ?? undefined,
      source: r.source ?? undefined,
      expiresAt: r.expires_at ? new Date(r.expires_at) : undefined,
    }));
  }

  @Query(() => [EventNameType], { description: 'Built-in names and the custom names this workspace has seen.' })
  async eventNames(@Member() auth: AuthContext) {
    const seen = await this.timelineRepository.seenNames(auth.workspaceId);
    return [...BUILT_IN_EVENTS.map((name) => ({ name, builtIn: true })), ...seen.map((s) => ({ name: s.name, builtIn: false }))];
  }

  @Query(() => [HeartbeatRowType], { description: 'Posts per minute from the website and servers, at most the last week.' })
  async heartbeat(@Member() auth: AuthContext, @Args('since', { nullable: true }) since?: Date) {
    await this.heartbeatService.flush();
    const floor = new Date(Date.now() - WEEK_MS);
    const from = since && since > floor ? since : floor;
    const rows = await this.heartbeatService.read(auth.workspaceId, from);
    return rows.map((r) => ({ minute: new Date(r.minute), action: r.action, answer: r.answer, origin: r.origin, count: r.count }));
  }

  @Query(() => [ListType])
  lists(@Member() auth: AuthContext) {
    return this.read.lists(auth.workspaceId);
  }

  @Mutation(() => ListType)
  async createList(@Manager() auth: AuthContext, @Args('input') input: CreateListInput) {
    const address = input.address.trim().toLowerCase();
    if (!/^[a-z0-9][a-z0-9_.-]{0,62}$/.test(address)) {
      throw new Refusal('invalid_field', 'address must be 1 to 63 of a-z, 0-9, _ . - (for example newsletter).');
    }
    const name = input.name.trim();
    if (!name || name.length > 200) throw new Refusal('invalid_field', 'name must be 1 to 200 characters.');
    const list = await this.peopleRepository.createList(auth.workspaceId, newId('list'), address, name);
    if (!list) throw new Refusal('conflict', `A list with address "${address}" already exists: choose another address.`);
    return list;
  }
}
