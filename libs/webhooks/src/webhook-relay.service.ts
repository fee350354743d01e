// The outbox relay's webhooks handler: new happenings become deliveries (happening-deliveries.ts)
// inside the relay's transaction; their first attempts start after it commits (and the poll covers a
// crash in between).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { listenerOver, OutboxHandler, OutboxListener, OutboxRow } from '@app/outbox';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryService } from './delivery.service';
import { EndpointsRepository } from './endpoints.repository';
import { HappeningDeliveries, HearingEndpoint } from './happening-deliveries';

@Injectable()
export class WebhookRelayService implements OutboxHandler {
  readonly name = 'webhooks';

  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly happenings: HappeningDeliveries,
    private readonly sender: DeliveryService,
  ) {}

  /** Listens in the workspaces with an address, enabled or not (a disabled one gets failed deliveries). */
  async listen(manager: EntityManager, workspaceIds: string[]): Promise<OutboxListener | null> {
    const endpoints = await this.endpoints.ofWorkspaces(manager, workspaceIds);
    return listenerOver(endpoints, (rows) => this.deliver(manager, rows, endpoints));
  }

  /** The happenings' deliveries, written in the relay's transaction; their first attempts start after it commits. */
  private async deliver(manager: EntityManager, rows: OutboxRow[], endpoints: HearingEndpoint[]): Promise<(() => Promise<void>) | void> {
    const deliveries = await this.happenings.make(manager, rows, endpoints);
    if (deliveries.length === 0) return;
    const created = await this.deliveries.insert(manager, deliveries);
    const pending = created.filter((d) => d.state === 'pending');
    return () => this.sender.startFirstAttempts(pending.map((d) => ({ workspaceId: d.workspace_id, deliveryId: d.id })));
  }
}
