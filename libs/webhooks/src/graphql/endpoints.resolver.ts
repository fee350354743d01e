// GraphQL: webhook addresses and their delivery log (docs/graphql.md#webhooks): members read, owners and admins change.
import { UseGuards } from '@nestjs/common';
import { Args, Context, Float, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders } from '@app/edge';
import { AttemptRow, DeliveriesRepository, DeliveryRow } from '../deliveries.repository';
import { DeliveryRecoveryService } from '../delivery-recovery.service';
import { recordOfBody, successRate, SUCCESS_RATE_WINDOW_MS } from '../domain';
import { EndpointRow, EndpointsRepository, EndpointSuccessRate } from '../endpoints.repository';
import { EndpointsService } from '../endpoints.service';
import {
  CreatedWebhookEndpointType,
  CreateWebhookEndpointInput,
  DeliveryAttemptType,
  DeliveryType,
  RotatedWebhookSecretType,
  UpdateWebhookEndpointInput,
  WebhookEndpointType,
} from './endpoints.types';

/** Deliveries shown per address (docs/webhooks.md#delivery-retries-and-the-log). */
const DELIVERY_LOG_SIZE = 20;

const loader = groupedLoader;

const endpointView = (row: EndpointRow): WebhookEndpointType => ({
  workspaceId: row.workspace_id,
  id: row.id,
  url: row.url,
  triggers: row.triggers,
  createdAt: new Date(row.created_at),
  disabledAt: row.disabled_at ? new Date(row.disabled_at) : undefined,
  disabledReason: row.disabled_reason ?? undefined,
  lastSuccessAt: row.last_success_at ? new Date(row.last_success_at) : undefined,
  rateLimitPerSecond: row.rate_limit_per_second ?? undefined,
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
  person: recordOfBody(row.body),
  attemptRows: row.attempt_rows,
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
    private readonly recovery: DeliveryRecoveryService,
    private readonly endpointRows: EndpointsRepository,
  ) {}

  @Query(() => [WebhookEndpointType], { description: 'The workspace outgoing webhook addresses, oldest first.' })
  async webhookEndpoints(@Member() auth: AuthContext) {
    return (await this.endpoints.list(auth.workspaceId)).map(endpointView);
  }

  @Mutation(() => CreatedWebhookEndpointType, {
    description: 'Up to ten per workspace; the secret is shown only here.',
  })
  async createWebhookEndpoint(@Manager() auth: AuthContext, @Args('input') input: CreateWebhookEndpointInput) {
    const { endpoint, secret } = await this.endpoints.create(auth.workspaceId, input);
    return { endpoint: endpointView(endpoint), secret };
  }

  @Mutation(() => WebhookEndpointType)
  async updateWebhookEndpoint(
    @Manager() auth: AuthContext,
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateWebhookEndpointInput,
  ) {
    return endpointView(await this.endpoints.update(auth.workspaceId, id, input));
  }

  @Mutation(() => Boolean, { description: 'Deletes the address and its delivery log.' })
  async deleteWebhookEndpoint(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    await this.endpoints.delete(auth.workspaceId, id);
    return true;
  }

  @Query(() => DeliveryType, { description: 'One delivery, with its attempts (what Send a test made, as it goes).' })
  async webhookDelivery(@Member() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return deliveryView(await this.endpoints.delivery(auth.workspaceId, id));
  }

  @Mutation(() => DeliveryType, {
    description:
      'Sends the delivery again now, with the same body, as its next attempt: a failed one, or a pending one whose ' +
      'last attempt failed (it need not wait for the schedule); never twice at once.',
  })
  async retryDelivery(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return deliveryView(await this.endpoints.retry(auth.workspaceId, id));
  }

  @Mutation(() => DeliveryType, { description: 'Posts a real body of type test (data {}) to the address.' })
  async sendTestDelivery(@Manager() auth: AuthContext, @Args('endpointId', { type: () => ID }) endpointId: string) {
    return deliveryView(await this.endpoints.sendTest({ id: auth.workspaceId, slug: auth.workspaceSlug }, endpointId));
  }

  @Mutation(() => RotatedWebhookSecretType, {
    description: 'A new secret, shown once; the previous one keeps signing beside it for 24 hours.',
  })
  async rotateWebhookSecret(@Manager() auth: AuthContext, @Args('endpointId', { type: () => ID }) endpointId: string) {
    return this.endpoints.rotateSecret(auth.workspaceId, endpointId);
  }

  @Mutation(() => WebhookEndpointType, {
    description: 'Sends to a disabled address again; what failed meanwhile waits for recoverDeliveries.',
  })
  async enableWebhookEndpoint(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return endpointView(await this.endpoints.enable(auth.workspaceId, id));
  }

  @Mutation(() => Int, {
    description:
      'Sends every failed delivery of the address made since then again, in order, at a bounded rate; answers ' +
      'how many.',
  })
  async recoverDeliveries(
    @Manager() auth: AuthContext,
    @Args('endpointId', { type: () => ID }) endpointId: string,
    @Args('since') since: Date,
  ) {
    return this.recovery.recover(auth.workspaceId, endpointId, since);
  }

  @Mutation(() => Int, {
    description:
      'Sends the happenings of [since, until) again as new deliveries, after live ones (the outbox keeps them ' +
      'OUTBOX_RETENTION_DAYS, 30 by default); answers how many.',
  })
  async replayEvents(
    @Manager() auth: AuthContext,
    @Args('endpointId', { type: () => ID }) endpointId: string,
    @Args('since') since: Date,
    @Args('until') until: Date,
  ) {
    return this.recovery.replay(auth.workspaceId, endpointId, since, until);
  }

  @ResolveField(() => Float, {
    nullable: true,
    description: 'Succeeded attempts over all attempts in the last day, 0 to 1; absent when none.',
  })
  async successRate(@Parent() endpoint: WebhookEndpointType, @Context() ctx: { loaders?: Loaders }) {
    const [counts] = await loader(
      ctx,
      `success:${endpoint.workspaceId}`,
      (ids) =>
        this.endpointRows.successCounts(endpoint.workspaceId, ids, new Date(Date.now() - SUCCESS_RATE_WINDOW_MS)),
      (row: EndpointSuccessRate) => row.endpoint_id,
    ).load(endpoint.id);
    return counts ? successRate(counts.succeeded, counts.failed) : null;
  }

  @ResolveField(() => [DeliveryType], {
    description: 'The last twenty deliveries (in that state: pending, succeeded or failed, when given), newest first.',
  })
  async deliveries(
    @Parent() endpoint: WebhookEndpointType,
    @Context() ctx: { loaders?: Loaders },
    @Args('state', { type: () => String, nullable: true }) state: string | null,
  ) {
    const rows = await loader(
      ctx,
      `deliveries:${endpoint.workspaceId}:${state ?? ''}`,
      (ids) => this.endpoints.deliveryLog(endpoint.workspaceId, ids, DELIVERY_LOG_SIZE, state ?? null),
      (row: DeliveryRow) => row.endpoint_id,
    ).load(endpoint.id);
    return rows.map(deliveryView);
  }
}

@Resolver(() => DeliveryType)
@UseGuards(GraphqlAuthGuard)
export class DeliveryResolver {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  @ResolveField(() => [DeliveryAttemptType], {
    description: 'Every attempt, first first, with the answer each received.',
  })
  async attempts(@Parent() delivery: DeliveryType, @Context() ctx: { loaders?: Loaders }) {
    if (delivery.attemptRows) return delivery.attemptRows.map(attemptView);
    const rows = await loader(
      ctx,
      `attempts:${delivery.workspaceId}`,
      (ids) => this.deliveries.attemptsOf(delivery.workspaceId, ids),
      (row: AttemptRow) => row.delivery_id,
    ).load(delivery.id);
    return rows.map(attemptView);
  }
}
