// GraphQL: webhook addresses and their delivery log (decisions.md section 9), owners and admins only.
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, groupedLoader, Loaders, Manager } from '@app/core';
import { AttemptRow, DeliveriesRepository, DeliveryRow } from '../deliveries.repository';
import { EndpointRow } from '../endpoints.repository';
import { EndpointsService } from '../endpoints.service';
import {
  CreatedWebhookEndpointType,
  CreateWebhookEndpointInput,
  DeliveryAttemptType,
  DeliveryType,
  UpdateWebhookEndpointInput,
  WebhookEndpointType,
} from './endpoints.types';

/** interface.md "Limits": delivery log shown. */
export const DELIVERY_LOG_SIZE = 20;

const loader = groupedLoader;

const endpointView = (row: EndpointRow): WebhookEndpointType => ({
  workspaceId: row.workspace_id,
  id: row.id,
  url: row.url,
  triggers: row.triggers,
  createdAt: new Date(row.created_at),
});

const deliveryView = (row: DeliveryRow): DeliveryType => ({
  workspaceId: row.workspace_id,
  id: row.id,
  endpointId: row.endpoint_id,
  type: row.type,
  state: row.state,
  attemptCount: row.attempts,
  nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : undefined,
  createdAt: new Date(row.created_at),
  body: row.body,
});

const attemptView = (row: AttemptRow): DeliveryAttemptType => ({
  number: row.number,
  startedAt: new Date(row.started_at),
  status: row.status_code ?? undefined,
  bodyExcerpt: row.body_excerpt ?? undefined,
  durationMs: row.duration_ms ?? undefined,
  error: row.error ?? undefined,
});

@Resolver(() => WebhookEndpointType)
@UseGuards(GraphqlAuthGuard)
export class EndpointsResolver {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly deliveryLog: DeliveriesRepository,
  ) {}

  @Query(() => [WebhookEndpointType], { description: 'The workspace outgoing webhook addresses, oldest first.' })
  async webhookEndpoints(@Manager() auth: AuthContext) {
    return (await this.endpoints.list(auth.workspaceId)).map(endpointView);
  }

  @Mutation(() => CreatedWebhookEndpointType, { description: 'Up to ten per workspace; the secret is shown only here.' })
  async createWebhookEndpoint(@Manager() auth: AuthContext, @Args('input') input: CreateWebhookEndpointInput) {
    const { endpoint, secret } = await this.endpoints.create(auth.workspaceId, input);
    return { endpoint: endpointView(endpoint), secret };
  }

  @Mutation(() => WebhookEndpointType)
  async updateWebhookEndpoint(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string, @Args('input') input: UpdateWebhookEndpointInput) {
    return endpointView(await this.endpoints.update(auth.workspaceId, id, input));
  }

  @Mutation(() => Boolean, { description: 'Deletes the address and its delivery log.' })
  async deleteWebhookEndpoint(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    await this.endpoints.delete(auth.workspaceId, id);
    return true;
  }

  @Mutation(() => DeliveryType, { description: 'Sends the delivery again now, with the same body; never twice at once.' })
  async retryDelivery(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return deliveryView(await this.endpoints.retry(auth.workspaceId, id));
  }

  @Mutation(() => DeliveryType, { description: 'Posts a real body of type test (data {}) to the address.' })
  async sendTestDelivery(@Manager() auth: AuthContext, @Args('endpointId', { type: () => ID }) endpointId: string) {
    return deliveryView(await this.endpoints.sendTest({ id: auth.workspaceId, slug: auth.workspaceSlug }, endpointId));
  }

  @ResolveField(() => [DeliveryType], { description: 'The last twenty deliveries, newest first.' })
  async deliveries(@Parent() endpoint: WebhookEndpointType, @Context() ctx: { loaders?: Loaders }) {
    const rows = await loader(
      ctx,
      `deliveries:${endpoint.workspaceId}`,
      (ids) => this.deliveryLog.latestOf(endpoint.workspaceId, ids, DELIVERY_LOG_SIZE),
      (row: DeliveryRow) => row.endpoint_id,
    ).load(endpoint.id);
    return rows.map(deliveryView);
  }
}

@Resolver(() => DeliveryType)
@UseGuards(GraphqlAuthGuard)
export class DeliveryResolver {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  @ResolveField(() => [DeliveryAttemptType], { description: 'Every attempt, first first, with the answer each received.' })
  async attempts(@Parent() delivery: DeliveryType, @Context() ctx: { loaders?: Loaders }) {
    const rows = await loader(
      ctx,
      `attempts:${delivery.workspaceId}`,
      (ids) => this.deliveries.attemptsOf(delivery.workspaceId, ids),
      (row: AttemptRow) => row.delivery_id,
    ).load(delivery.id);
    return rows.map(attemptView);
  }
}
