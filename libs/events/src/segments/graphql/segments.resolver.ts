// GraphQL: live segments, their counts, fill progress and members (docs/graphql.md#segments). Owners and admins
// write them; members read them, as lists.
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { personView } from '../../graphql/people.resolver';
import { PersonConnectionType, PersonType } from '../../graphql/people.types';
import type { SegmentRow } from '../segments.repository';
import { SegmentsService } from '../segments.service';
import { CreateSegmentInput, SegmentRefType, SegmentType, UpdateSegmentInput } from './segments.types';

type SegmentView = SegmentType & { workspaceId: string };

function segmentView(row: SegmentRow): SegmentView {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    name: row.name,
    definition: row.definition,
    filling: row.filling,
    fill: row.filling
      ? { done: row.fill_done, total: row.fill_total ?? undefined, startedAt: row.fill_started_at ?? undefined }
      : undefined,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

@Resolver(() => SegmentType)
@UseGuards(GraphqlAuthGuard)
export class SegmentsResolver {
  constructor(private readonly segments: SegmentsService) {}

  @Query(() => [SegmentType], { name: 'segments', description: 'Oldest first.' })
  async allSegments(@Member() auth: AuthContext) {
    return (await this.segments.list(auth.workspaceId)).map(segmentView);
  }

  @Query(() => SegmentType, { nullable: true })
  async segment(@Member() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    const row = await this.segments.find(auth.workspaceId, id);
    return row ? segmentView(row) : null;
  }

  @Mutation(() => SegmentType, { description: 'At most 50 per workspace; the members fill in from then on.' })
  async createSegment(@Manager() auth: AuthContext, @Args('input') input: CreateSegmentInput) {
    return segmentView(await this.segments.create(auth.workspaceId, input));
  }

  @Mutation(() => SegmentType, {
    description: 'Each of name and definition left as it is when absent; a new definition fills the segment again.',
  })
  async updateSegment(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateSegmentInput,
  ) {
    return segmentView(await this.segments.update(auth.workspaceId, id, input));
  }

  @Mutation(() => Boolean, { description: 'Its members go with it.' })
  async deleteSegment(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return this.segments.delete(auth.workspaceId, id);
  }

  @ResolveField(() => Int, { description: 'People in the segment now.' })
  async count(@Parent() segment: SegmentView, @Context() ctx: { loaders?: Loaders }) {
    const load = (ids: readonly string[]) => this.segments.counts(segment.workspaceId, ids);
    const name = `segment-counts:${segment.workspaceId}`;
    const [row] = await groupedLoader(ctx, name, load, (r) => r.segment_id).load(segment.id);
    return row?.count ?? 0;
  }

  @ResolveField(() => PersonConnectionType, {
    description: 'Its members by record id; first is 1 to 100 (default 50).',
  })
  async people(
    @Parent() segment: SegmentView,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = await this.segments.members(segment.workspaceId, segment.id, first, after);
    const filter = { among: this.segments.memberCondition(segment.workspaceId, segment.id) };
    const edges = page.edges.map((e) => ({ cursor: e.cursor, node: personView(e.node) }));
    return { workspaceId: segment.workspaceId, filter, edges, pageInfo: page.pageInfo };
  }
}

@Resolver(() => PersonType)
@UseGuards(GraphqlAuthGuard)
export class PersonSegmentsResolver {
  constructor(private readonly service: SegmentsService) {}

  @ResolveField(() => [SegmentRefType], { description: 'The segments the person is in now, by name.' })
  segments(@Parent() person: PersonType & { workspaceId: string }, @Context() ctx: { loaders?: Loaders }) {
    const name = `segments-of:${person.workspaceId}`;
    const load = (ids: readonly string[]) => this.service.ofPeople(person.workspaceId, ids);
    return groupedLoader(ctx, name, load, (r) => r.person_id).load(person.id);
  }
}
