// The outbox relay's webhooks handler: new happenings become deliveries (happening-deliveries.ts)
// inside the relay's transaction; their first attempts start after it commits (and the poll covers a
// crash in between).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OutboxHandler, OutboxRow } from '@app/core';
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

  /** Workspaces with an address, enabled or not (a disabled one gets failed deliveries). */
  async listening(manager: EntityManager, workspaceIds: string[]): Promise<string[]> {
    return [...new Set((await this.endpoints.ofWorkspaces(manager, workspaceIds)).map((e) => e.workspace_id))];
  }

  async handle(manager: EntityManager, rows: OutboxRow[]): Promise<(() => Promise<void>) | void> {
    const workspaceIds = [...new Set(rows.map((row) => row.workspaceId))];
    const endpoints = await this.endpoints.ofWorkspaces(manager, workspaceIds);
    if (endpoints.length === 0) return;
    const deliveries = await this.happenings.make(manager, rows, endpoints);
    if (deliveries.length === 0) return;
    const created = await this.deliveries.insert(manager, deliveries);
    const pending = created.filter((d) => d.state === 'pending');
    return () => this.sender.startFirstAttempts(pending.map((d) => ({ workspaceId: d.workspace_id, deliveryId: d.id })));
  }
}
