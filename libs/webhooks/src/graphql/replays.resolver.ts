// GraphQL: a webhook address's replays and their progress (docs/webhooks.md#replaying-a-window); members read them,
// replayEvents (owners and admins) starts one.
import { UseGuards } from '@nestjs/common';
import { Context, Field, ID, Int, ObjectType, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { groupedLoader, Loaders } from '@app/edge';
import { GraphqlAuthGuard } from '@app/workspaces';
import { ReplayRow, ReplaysRepository } from '../replays.repository';
import { WebhookEndpointType } from './endpoints.types';

/** Replays shown per address. */
const REPLAYS_SHOWN = 5;

@ObjectType('WebhookReplay', { description: 'A window of happenings sent again to one address, and how far it is.' })
class WebhookReplayType {
  @Field(() => ID) id: string;
  @Field({ description: 'queued (waiting for a worker), running or done.' }) state: string;
  @Field(() => Int, { description: 'The deliveries the window makes for the address.' }) total: number;
  @Field(() => Int, { description: 'Deliveries sent so far; equal to total once done.' }) done: number;
  @Field({ description: 'The window: happenings written from since (included) until until (excluded).' })
  since: Date;
  @Field() until: Date;
  @Field() createdAt: Date;
  @Field({ nullable: true }) finishedAt?: Date;
}

const replayView = (row: ReplayRow): WebhookReplayType => ({
  id: row.id,
  state: row.state,
  // Happenings relayed after the count (a late commit inside the window) are sent too.
  total: Math.max(row.total, row.made),
  done: row.done,
  since: new Date(row.since),
  until: new Date(row.until),
  createdAt: new Date(row.created_at),
  finishedAt: row.finished_at ? new Date(row.finished_at) : undefined,
});

@Resolver(() => WebhookEndpointType)
@UseGuards(GraphqlAuthGuard)
export class EndpointReplaysResolver {
  constructor(private readonly replayRows: ReplaysRepository) {}

  @ResolveField(() => [WebhookReplayType], { description: 'The last five replays (replayEvents), newest first.' })
  async replays(@Parent() endpoint: WebhookEndpointType, @Context() ctx: { loaders?: Loaders }) {
    const rows = await groupedLoader(
      ctx,
      `replays:${endpoint.workspaceId}`,
      (ids) => this.replayRows.latestOf(endpoint.workspaceId, ids, REPLAYS_SHOWN),
      (row: ReplayRow) => row.endpoint_id,
    ).load(endpoint.id);
    return rows.map(replayView);
  }
}
