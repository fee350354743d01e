// GraphQL: broadcasts (docs/graphql.md#broadcasts). Owners and admins make, send, pause, resume and cancel them;
// members read them.
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { groupedLoader, Loaders, pageOf, pageSize, decodeCursor } from '@app/edge';
import { personView, PersonType } from '@app/events';
import { PeopleReadRepository } from '@app/people';
import { Refusal } from '@app/platform';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { BroadcastMovesService } from '../broadcast-moves.service';
import { RECIPIENT_STATES, type RecipientRow, type RecipientState } from '../broadcast-recipients.repository';
import type { BroadcastRow } from '../broadcasts.repository';
import { BroadcastsService } from '../broadcasts.service';
import {
  BroadcastConnectionType,
  BroadcastRecipientConnectionType,
  BroadcastRecipientType,
  BroadcastSkipType,
  BroadcastType,
  CreateBroadcastInput,
  UpdateBroadcastInput,
} from './broadcasts.types';

type BroadcastView = BroadcastType & { workspaceId: string; listId: string | null };
type Ctx = { loaders?: Loaders };
type RecipientView = BroadcastRecipientType & { workspaceId: string };

function broadcastView(row: BroadcastRow): BroadcastView {
  return {
    workspaceId: row.workspace_id,
    listId: row.list_id,
    id: row.id,
    name: row.name,
    state: row.state,
    list: null,
    segment: row.segment_id,
    template: row.template_id,
    subject: row.subject,
    body: row.body,
    scheduledAt: row.scheduled_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    audience: row.audience,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

@Resolver(() => BroadcastType)
@UseGuards(GraphqlAuthGuard)
export class BroadcastsResolver {
  constructor(
    private readonly broadcasts: BroadcastsService,
    private readonly moves: BroadcastMovesService,
  ) {}

  @Query(() => BroadcastConnectionType, { name: 'broadcasts', description: 'Newest first; first 1 to 100.' })
  async allBroadcasts(
    @Member() auth: AuthContext,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
  ) {
    const page = await this.broadcasts.page(auth.workspaceId, first, after);
    return { ...page, edges: page.edges.map((e) => ({ cursor: e.cursor, node: broadcastView(e.node) })) };
  }

  @Query(() => BroadcastType, { nullable: true })
  async broadcast(@Member() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    const row = await this.broadcasts.find(auth.workspaceId, id);
    return row ? broadcastView(row) : null;
  }

  @Mutation(() => BroadcastType, {
    description: 'A draft: exactly one of list and segment; a template or subject+body.',
  })
  async createBroadcast(@Manager() auth: AuthContext, @Args('input') input: CreateBroadcastInput) {
    return broadcastView(await this.broadcasts.create(auth.workspaceId, input));
  }

  @Mutation(() => BroadcastType, { description: 'A draft or a scheduled broadcast only.' })
  async updateBroadcast(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateBroadcastInput,
  ) {
    return broadcastView(await this.broadcasts.update(auth.workspaceId, id, input));
  }

  @Mutation(() => BroadcastType, { description: 'Sending starts at `at` (within a year); again to move the time.' })
  async scheduleBroadcast(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('at', { type: () => Date }) at: Date,
  ) {
    return broadcastView(await this.moves.schedule(auth.workspaceId, id, at));
  }

  @Mutation(() => BroadcastType, {
    description: "Sending starts now, its audience fixed; refused until the workspace's postalAddress is set.",
  })
  async sendBroadcast(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return broadcastView(await this.moves.send(auth.workspaceId, id));
  }

  @Mutation(() => BroadcastType, { description: 'A sending broadcast stops after the emails leaving now.' })
  async pauseBroadcast(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return broadcastView(await this.moves.pause(auth.workspaceId, id));
  }

  @Mutation(() => BroadcastType, { description: 'A paused broadcast sends on to those not reached yet.' })
  async resumeBroadcast(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return broadcastView(await this.moves.resume(auth.workspaceId, id));
  }

  @Mutation(() => BroadcastType, { description: 'Nobody not reached yet gets it. Not a sent or cancelled one.' })
  async cancelBroadcast(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return broadcastView(await this.moves.cancel(auth.workspaceId, id));
  }

  @Mutation(() => String, {
    description:
      "One email of the broadcast, marked [Test], to the signed-in member's address or another member's; " +
      'not stored. Answers the address.',
  })
  async sendBroadcastTest(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('email', { nullable: true }) email?: string,
  ) {
    return this.moves.sendTest(auth, id, email);
  }

  @ResolveField(() => String, { nullable: true, description: "The list's address, for a broadcast to a list." })
  async list(@Parent() b: BroadcastView) {
    return b.listId ? this.broadcasts.listAddress({ workspace_id: b.workspaceId, list_id: b.listId }) : null;
  }

  @ResolveField(() => Int, { description: 'Emails the provider accepted.' })
  async sent(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return this.count(b, ctx, 'sent');
  }

  @ResolveField(() => Int, { description: 'Emails that failed for good (a permanent refusal, or the last retry).' })
  async failed(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return this.count(b, ctx, 'failed');
  }

  @ResolveField(() => Int, {
    description: 'Recipients who could not get it when their turn came (skippedBy says why).',
  })
  async skipped(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return this.count(b, ctx, 'skipped');
  }

  @ResolveField(() => Int, { description: 'Recipients not reached yet (queued or sending).' })
  async pending(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return (await this.count(b, ctx, 'queued')) + (await this.count(b, ctx, 'sending'));
  }

  @ResolveField(() => Int, { description: 'Recipients a cancel left out.' })
  async cancelled(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return this.count(b, ctx, 'cancelled');
  }

  @ResolveField(() => [BroadcastSkipType], { description: 'The skipped, by reason, most first.' })
  async skippedBy(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    const rows = await this.tallies(b, ctx);
    return rows
      .filter((r) => r.state === 'skipped')
      .map((r) => ({ reason: r.reason ?? 'unknown', count: r.n }))
      .sort((x, y) => y.count - x.count || x.reason.localeCompare(y.reason));
  }

  @ResolveField(() => Int, { description: "Emails opened (or clicked), by the email door's statuses." })
  async opened(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return (await this.engagement(b, ctx))?.opened ?? 0;
  }

  @ResolveField(() => Int, { description: 'Emails whose link was clicked.' })
  async clicked(@Parent() b: BroadcastView, @Context() ctx: Ctx) {
    return (await this.engagement(b, ctx))?.clicked ?? 0;
  }

  @ResolveField(() => BroadcastRecipientConnectionType, {
    description: 'The audience by person id, of one state when given; first 1 to 100 (default 50).',
  })
  async recipients(
    @Parent() b: BroadcastView,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
    @Args('after', { nullable: true }) after?: string,
    @Args('state', { nullable: true }) state?: string,
  ) {
    const size = pageSize(first);
    const from = decodeCursor(after)?.id ?? null;
    if (state != null && !(RECIPIENT_STATES as readonly string[]).includes(state))
      throw new Refusal('invalid_field', `state must be one of ${RECIPIENT_STATES.join(', ')}.`, { field: 'state' });
    const rows = await this.broadcasts.recipientsPage(b.workspaceId, b.id, {
      state: (state as RecipientState) ?? null,
      after: from,
      first: size + 1,
    });
    const page = pageOf(rows, size, (r) => ({ atMicros: '0', id: r.person_id }));
    const edges = page.edges.map((e) => ({ cursor: e.cursor, node: recipientView(b.workspaceId, e.node) }));
    return { edges, pageInfo: page.pageInfo };
  }

  private async count(b: BroadcastView, ctx: Ctx, state: RecipientState): Promise<number> {
    return (await this.tallies(b, ctx)).filter((r) => r.state === state).reduce((sum, r) => sum + r.n, 0);
  }

  private tallies(b: BroadcastView, ctx: Ctx) {
    const load = (ids: readonly string[]) => this.broadcasts.tallyRows(b.workspaceId, ids);
    return groupedLoader(ctx, `broadcast-tallies:${b.workspaceId}`, load, (r) => r.broadcast_id).load(b.id);
  }

  private async engagement(b: BroadcastView, ctx: Ctx) {
    const load = (ids: readonly string[]) => this.broadcasts.engagement(b.workspaceId, ids);
    const [row] = await groupedLoader(ctx, `broadcast-engagement:${b.workspaceId}`, load, (r) => r.broadcast_id).load(
      b.id,
    );
    return row;
  }
}

function recipientView(workspaceId: string, row: RecipientRow): RecipientView {
  return {
    workspaceId,
    personId: row.person_id,
    state: row.state,
    reason: row.reason,
    attempts: row.attempts,
    messageId: row.message_id,
    sentAt: row.sent_at,
    updatedAt: row.updated_at,
  };
}

@Resolver(() => BroadcastRecipientType)
@UseGuards(GraphqlAuthGuard)
export class BroadcastRecipientsResolver {
  constructor(private readonly people: PeopleReadRepository) {}

  @ResolveField(() => PersonType, { nullable: true, description: 'Null once the person is erased or merged away.' })
  async person(@Parent() r: RecipientView, @Context() ctx: Ctx) {
    const load = (ids: readonly string[]) => this.people.byIds(r.workspaceId, ids);
    const [row] = await groupedLoader(ctx, `broadcast-people:${r.workspaceId}`, load, (p) => p.id).load(r.personId);
    return row ? personView(row) : null;
  }
}
