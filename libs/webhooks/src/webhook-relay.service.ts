// The outbox relay's webhooks handler: new happenings become deliveries (happening-deliveries.ts)
// inside the relay's transaction; their first attempts start after it commits (and the poll covers a
// crash in between).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OutboxHandler, OutboxListener } from '@app/outbox';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryService } from './delivery.service';
import { EndpointsRepository } from './endpoints.repository';
import { HappeningDeliveries } from './happening-deliveries';

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
    if (endpoints.length === 0) return null;
    return {
      workspaceIds: [...new Set(endpoints.map((e) => e.workspace_id))],
      handle: async (rows) => {
        const deliveries = await this.happenings.make(manager, rows, endpoints);
        if (deliveries.length === 0) return;
        const created = await this.deliveries.insert(manager, deliveries);
        const pending = created.filter((d) => d.state === 'pending');
        return () => this.sender.startFirstAttempts(pending.map((d) => ({ workspaceId: d.workspace_id, deliveryId: d.id })));
      },
    };
  }
}
