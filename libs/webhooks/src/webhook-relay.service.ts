// interface.md "Outgoing webhook triggers" and decisions.md section 6: one happening is one delivery
// per address that hears any of its triggers, typed with the most specific name. The body is built
// once, here, and stored: every attempt sends the same bytes. Runs inside the outbox relay's
// transaction; their first attempts start after it commits (and the poll covers a crash in between).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId, OutboxHandler, OutboxRow } from '@app/core';
import { DeliveriesRepository, NewDelivery } from './deliveries.repository';
import { DeliveryService } from './delivery.service';
import { buildWebhookBody, isTrigger, mostSpecificTrigger, personRecord, Trigger, WebhookRecord } from './domain';
import { EndpointsRepository } from './endpoints.repository';

interface HappeningPayload {
  at?: string;
  data?: Record<string, Record<string, unknown>>;
}

@Injectable()
export class WebhookRelayService implements OutboxHandler {
  readonly name = 'webhooks';

  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly sender: DeliveryService,
  ) {}

  async handle(manager: EntityManager, rows: OutboxRow[]): Promise<(() => Promise<void>) | void> {
    const workspaceIds = [...new Set(rows.map((row) => row.workspaceId))];
    const endpoints = await this.endpoints.ofWorkspaces(manager, workspaceIds);
    if (endpoints.length === 0) return;

    const matches: Array<{ row: OutboxRow; endpointId: string; type: Trigger; data: Record<string, unknown> }> = [];
    for (const row of rows) {
      const data = (row.payload as HappeningPayload).data ?? {};
      const triggers = Object.keys(data).filter(isTrigger);
      for (const endpoint of endpoints) {
        if (endpoint.workspace_id !== row.workspaceId) continue;
        const type = mostSpecificTrigger(triggers, endpoint.triggers);
        if (type) matches.push({ row, endpointId: endpoint.id, type, data: data[type] ?? {} });
      }
    }
    if (matches.length === 0) return;

    const { records, slugs } = await this.context(manager, matches.map((m) => m.row));
    const deliveries: NewDelivery[] = matches.map(({ row, endpointId, type, data }) => {
      const id = newId('dlv');
      const record = (row.personId && records.get(`${row.workspaceId}/${row.personId}`)) || { id: row.personId ?? '', kind: 'person' as const, name: '' };
      const at = new Date((row.payload as HappeningPayload).at ?? row.createdAt);
      const workspace = { id: row.workspaceId, slug: slugs.get(row.workspaceId) ?? '' };
      return { workspaceId: row.workspaceId, id, endpointId, outboxId: row.id, type, body: buildWebhookBody({ deliveryId: id, type, at, workspace, record, data }) };
    });
    const created = await this.deliveries.insert(manager, deliveries);
    return () => this.sender.startFirstAttempts(created.map((d) => ({ workspaceId: d.workspace_id, deliveryId: d.id })));
  }

  /** The body's record (a merged person is shown as the person they became) and workspace slugs. */
  private async context(manager: EntityManager, rows: OutboxRow[]) {
    const withPerson = rows.filter((row) => row.personId);
    const people: Array<{ workspace_id: string; asked: string; id: string; name: string | null; email: string | null; stage: string | null }> =
      withPerson.length === 0
        ? []
        : await manager.query(
            `SELECT p.workspace_id, p.id AS asked, coalesce(s.id, p.id) AS id, coalesce(s.name, p.name) AS name,
                    coalesce(s.email, p.email) AS email, coalesce(s.stage, p.stage) AS stage
               FROM unnest($1::text[], $2::text[]) AS k(w, p_id)
               JOIN people p ON p.workspace_id = k.w AND p.id = k.p_id
               LEFT JOIN people s ON p.merged_into IS NOT NULL AND s.workspace_id = p.workspace_id AND s.id = p.merged_into`,
            [withPerson.map((row) => row.workspaceId), withPerson.map((row) => row.personId)],
          );
    const records = new Map<string, WebhookRecord>();
    for (const p of people) records.set(`${p.workspace_id}/${p.asked}`, personRecord(p));
    const workspaces: Array<{ id: string; slug: string }> = await manager.query(`SELECT id, slug FROM workspaces WHERE id = ANY($1::text[])`, [
      [...new Set(rows.map((row) => row.workspaceId))],
    ]);
    return { records, slugs: new Map(workspaces.map((w) => [w.id, w.slug])) };
  }
}
