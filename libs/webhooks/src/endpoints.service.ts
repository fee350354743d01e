// docs/webhooks.md: up to ten addresses per workspace, each with a secret shown once and a choice of
// triggers; the address rule (docs/webhooks.md#addresses) is checked when saved; Retry and Send a test
// go through the same claimed delivery path.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { DeliveriesRepository, DeliveryRow } from './deliveries.repository';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
import { DeliveryQueue } from './delivery.service';
import {
  buildWebhookBody,
  DELIVERY_STATES,
  generateEndpointSecret,
  isDeliveryState,
  isTrigger,
  sealSecret,
  TRIGGERS,
} from './domain';
import { EndpointRow, EndpointsRepository } from './endpoints.repository';
import { attemptJobId, manualRetryJobId } from './jobs/delivery.job';
import { isRedactedBody } from './person-data.participant';
import { AddressResolver } from './sending/address-resolver';

/** Outgoing webhook addresses per workspace (docs/webhooks.md). */
export const MAX_ENDPOINTS_PER_WORKSPACE = 10;

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;
export const MAX_RATE_LIMIT_PER_SECOND = 10_000;

/** Who a test body names: nobody real, so a test never exposes a person (decisions in docs/decisions.md). */
export const TEST_RECORD = { id: 'per_test', kind: 'person' as const, name: 'Test person', email: 'test@example.com' };

@Injectable()
export class EndpointsService {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly claims: DeliveryClaimsRepository,
    private readonly queue: DeliveryQueue,
    private readonly addresses: AddressResolver,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async create(
    workspaceId: string,
    input: { url: string; triggers: string[]; rateLimitPerSecond?: number | null },
  ): Promise<{ endpoint: EndpointRow; secret: string }> {
    const url = await this.addresses.checkedAddress(input.url);
    const triggers = checkedTriggers(input.triggers);
    const rateLimit = checkedRateLimit(input.rateLimitPerSecond);
    const secret = generateEndpointSecret();
    const endpoint = await this.endpoints.createWithin(MAX_ENDPOINTS_PER_WORKSPACE, {
      workspace_id: workspaceId,
      id: newId('whe'),
      url,
      triggers,
      secret_sealed: sealSecret(this.config.appSecret, secret),
      rate_limit_per_second: rateLimit ?? null,
    });
    if (!endpoint) {
      throw new Refusal(
        'limit_reached',
        `A workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook addresses: delete one before adding another.`,
      );
    }
    return { endpoint, secret };
  }

  /** rateLimitPerSecond: absent keeps it, null removes it. */
  async update(
    workspaceId: string,
    id: string,
    input: { url?: string | null; triggers?: string[] | null; rateLimitPerSecond?: number | null },
  ): Promise<EndpointRow> {
    const changes = {
      url: input.url == null ? undefined : await this.addresses.checkedAddress(input.url),
      triggers: input.triggers == null ? undefined : checkedTriggers(input.triggers),
      rateLimitPerSecond: checkedRateLimit(input.rateLimitPerSecond),
    };
    const updated = await this.endpoints.update(workspaceId, id, changes);
    if (!updated) throw notFound('webhook address', id);
    return updated;
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.endpoints.delete(workspaceId, id))) throw notFound('webhook address', id);
  }

  list(workspaceId: string): Promise<EndpointRow[]> {
    return this.endpoints.list(workspaceId);
  }

  /**
   * A new secret, shown once; the one it replaces keeps signing beside it for 24 hours (Standard
   * Webhooks: webhook-signature carries both), so receivers can switch without missing a delivery.
   */
  async rotateSecret(workspaceId: string, id: string): Promise<{ secret: string }> {
    const secret = generateEndpointSecret();
    const previousUntil = new Date(Date.now() + ROTATION_OVERLAP_MS);
    if (!(await this.endpoints.rotateSecret(workspaceId, id, sealSecret(this.config.appSecret, secret), previousUntil)))
      throw notFound('webhook address', id);
    return { secret };
  }

  /** Enabled again; what failed while it was disabled stays failed until recovered (recoverDeliveries). */
  async enable(workspaceId: string, id: string): Promise<EndpointRow> {
    const enabled = await this.endpoints.enable(workspaceId, id);
    if (!enabled) throw notFound('webhook address', id);
    return enabled;
  }

  /** The address, refused when unknown or disabled (nothing is sent to a disabled address). */
  async enabledEndpoint(workspaceId: string, id: string): Promise<EndpointRow> {
    const endpoint = await this.endpoints.get(workspaceId, id);
    if (!endpoint) throw notFound('webhook address', id);
    if (endpoint.disabled_at) {
      throw new Refusal(
        'conflict',
        `The address ${id} is disabled (${endpoint.disabled_reason ?? 'by hand'}): enable it with ` +
          `enableWebhookEndpoint first.`,
      );
    }
    return endpoint;
  }

  /** One delivery of the workspace, as the log shows it (Send a test follows the one it made). */
  async delivery(workspaceId: string, deliveryId: string): Promise<DeliveryRow> {
    const delivery = await this.deliveries.get(workspaceId, deliveryId);
    if (!delivery) throw notFound('delivery', deliveryId);
    return delivery;
  }

  /** The delivery log of these addresses: the last `limit` of each, newest first, only in `state` when named. */
  deliveryLog(
    workspaceId: string,
    endpointIds: readonly string[],
    limit: number,
    state: string | null,
  ): Promise<DeliveryRow[]> {
    if (state != null && !isDeliveryState(state)) {
      throw new Refusal(
        'invalid_field',
        `state is one of ${DELIVERY_STATES.join(', ')}; leave it out for every state.`,
        {
          field: 'state',
        },
      );
    }
    return this.deliveries.latestOf(workspaceId, endpointIds, limit, state);
  }

  /**
   * A manual Retry, whatever the state: a failed delivery, or a pending one whose last attempt failed, is sent
   * now as its next attempt (docs/decisions.md#retry-on-any-failed-attempt): due now and queued; an attempt already out
   * settles it (see DeliveryClaimsRepository.settle).
   */
  async retry(workspaceId: string, deliveryId: string): Promise<DeliveryRow> {
    const delivery = await this.deliveries.get(workspaceId, deliveryId);
    if (!delivery) throw notFound('delivery', deliveryId);
    if (isRedactedBody(delivery.body))
      throw new Refusal(
        'conflict',
        'This delivery named a person who was erased; its body is gone, so there is nothing to send again.',
      );
    await this.enabledEndpoint(workspaceId, delivery.endpoint_id);
    const due = await this.claims.makeDue(workspaceId, deliveryId);
    if (!due) throw notFound('delivery', deliveryId);
    if (!due.inFlight) await this.queue.enqueue([{ workspaceId, deliveryId, jobId: manualRetryJobId(deliveryId) }]);
    return (await this.deliveries.get(workspaceId, deliveryId))!;
  }

  /** Send a test: a real body of type test with data {}, stored and sent like any delivery. */
  async sendTest(workspace: { id: string; slug: string }, endpointId: string): Promise<DeliveryRow> {
    await this.enabledEndpoint(workspace.id, endpointId);
    const id = newId('dlv');
    const body = buildWebhookBody({
      deliveryId: id,
      type: 'test',
      at: new Date(),
      workspace,
      record: TEST_RECORD,
      data: {},
    });
    await this.deliveries.insertOne({ workspaceId: workspace.id, id, endpointId, outboxId: null, type: 'test', body });
    await this.queue.enqueue([{ workspaceId: workspace.id, deliveryId: id, jobId: attemptJobId(id, 0) }]);
    return (await this.deliveries.get(workspace.id, id))!;
  }
}

function checkedTriggers(triggers: string[]): string[] {
  const unknown = triggers.filter((trigger) => !isTrigger(trigger));
  if (unknown.length > 0 || triggers.length === 0) {
    throw new Refusal('invalid_field', `Choose one or more triggers among ${TRIGGERS.join(', ')}.`, {
      field: 'triggers',
    });
  }
  return [...new Set(triggers)];
}

/** Optional; a whole number of posts per second. */
function checkedRateLimit(value: number | null | undefined): number | null | undefined {
  if (value == null) return value;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT_PER_SECOND) {
    throw new Refusal(
      'invalid_field',
      `rateLimitPerSecond is a whole number from 1 to ${MAX_RATE_LIMIT_PER_SECOND}, or null for no limit.`,
      {
        field: 'rateLimitPerSecond',
      },
    );
  }
  return value;
}

function notFound(what: string, id: string): Refusal {
  return new Refusal('not_found', `No ${what} ${id} in this workspace: check the id.`);
}
