// docs/webhooks.md#triggers-and-bodies: one happening is one delivery
// per address that hears any of its triggers, typed with the most specific name. The body is built
// once, here, and stored: every attempt sends the same bytes. Used by the relay (new happenings) and
// by replayEvents (happenings of a window sent again as new deliveries).
//
// The outbox relay's webhooks handler (WebhookRelayService): new happenings become deliveries inside
// the relay's transaction; their first attempts start after it commits (and the poll covers a crash in
// between).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from '@app/platform';
import { OutboxHandler, OutboxRow } from '@app/outbox';
import { WorkspacesRepository } from '@app/workspaces';
import { PeopleReadRepository } from '@app/people';
import { DeliveriesRepository, NewDelivery } from './deliveries.repository';
import type { ClaimedAttempt } from './deliveries.types';
import { previousSecretSql } from './delivery-claims.repository';
import { FirstAttemptsService } from './first-attempts.service';
import { happeningDelivery, Trigger, webhookBodyAfterId, webhookBodyWithId, WebhookRecord } from './domain';
import type { EndpointRow } from './endpoints.repository';

interface HappeningPayload {
  at?: string;
  data?: Record<string, Record<string, unknown>>;
}

export type HearingEndpoint = Pick<EndpointRow, 'workspace_id' | 'id' | 'triggers' | 'disabled_at'>;

/** Workspaces whose slug this process knows (a slug never changes); past this many it starts again. */
const SLUGS_KEPT = 10_000;

@Injectable()
export class HappeningDeliveries {
  private readonly slugs = new Map<string, string>();

  constructor(
    private readonly people: PeopleReadRepository,
    private readonly workspaces: WorkspacesRepository,
  ) {}

  /**
   * The deliveries these happenings make for these addresses, in happening order. An address that is
   * disabled gets its deliveries as failed: nothing is sent, and they can be recovered later.
   */
  async make(
    manager: EntityManager,
    rows: OutboxRow[],
    endpoints: HearingEndpoint[],
    linkOutbox = true,
  ): Promise<NewDelivery[]> {
    const matches: Array<{ row: OutboxRow; endpoint: HearingEndpoint; type: Trigger; data: Record<string, unknown> }> =
      [];
    for (const row of rows) {
      const data = (row.payload as HappeningPayload).data ?? {};
      for (const endpoint of endpoints) {
        if (endpoint.workspace_id !== row.workspaceId) continue;
        const heard = happeningDelivery(data, endpoint.triggers);
        if (heard) matches.push({ row, endpoint, ...heard });
      }
    }
    if (matches.length === 0) return [];

    const { records, slugs } = await this.context(
      manager,
      matches.map((m) => m.row),
    );
    // The body after its id is the same for every address that gets the happening with one type.
    let last: { row: OutboxRow; type: Trigger; afterId: string } | null = null;
    return matches.map(({ row, endpoint, type, data }) => {
      const id = newId('dlv');
      if (last?.row !== row || last.type !== type) {
        const record = (row.personId && records.get(`${row.workspaceId}/${row.personId}`)) || {
          id: row.personId ?? '',
          kind: 'person' as const,
          name: '',
        };
        const at = new Date((row.payload as HappeningPayload).at ?? row.createdAt);
        const workspace = { id: row.workspaceId, slug: slugs.get(row.workspaceId) ?? '' };
        last = { row, type, afterId: webhookBodyAfterId({ type, at, workspace, record, data }) };
      }
      return {
        workspaceId: row.workspaceId,
        id,
        endpointId: endpoint.id,
        // A replay makes new deliveries, which the (outbox row, address) key would refuse.
        outboxId: linkOutbox ? row.id : null,
        type,
        body: webhookBodyWithId(id, last.afterId),
        bodyTail: last.afterId,
        ...(endpoint.disabled_at ? { state: 'failed' as const } : {}),
      };
    });
  }

  /** The body's record (a merged person is shown as the person they became) and workspace slugs. */
  private async context(manager: EntityManager, rows: OutboxRow[]) {
    const withPerson = rows.filter((row) => row.personId);
    const people =
      withPerson.length === 0
        ? []
        : await this.people.asTheyAre(
            manager,
            withPerson.map((row) => row.workspaceId),
            withPerson.map((row) => row.personId!),
          );
    const records = new Map<string, WebhookRecord>();
    for (const p of people)
      records.set(`${p.workspace_id}/${p.asked}`, {
        id: p.id,
        kind: 'person',
        name: p.name ?? '',
        email: p.email,
        stage: p.stage,
      });
    return { records, slugs: await this.slugsOf(manager, rows) };
  }

  /** The rows' workspace slugs: asked once per workspace and process, since no workspace is ever renamed. */
  private async slugsOf(manager: EntityManager, rows: OutboxRow[]): Promise<ReadonlyMap<string, string>> {
    const unknown = [...new Set(rows.map((row) => row.workspaceId))].filter((id) => !this.slugs.has(id));
    if (unknown.length === 0) return this.slugs;
    if (this.slugs.size + unknown.length > SLUGS_KEPT) this.slugs.clear();
    for (const [id, slug] of await this.workspaces.slugsOf(unknown, manager)) this.slugs.set(id, slug);
    return this.slugs;
  }
}

/** What the relay reads of each address: enough to decide what it hears and to send its first attempts. */
export type RelayEndpoint = HearingEndpoint &
  Pick<EndpointRow, 'url' | 'secret_sealed' | 'rate_limit_per_second'> & { previous_secret_sealed: string | null };

/** The first attempt of a delivery stored claimed (the relay's, a replay's), as its sender takes it. */
export function firstClaim(d: NewDelivery, e: RelayEndpoint): ClaimedAttempt {
  return {
    number: 1,
    type: d.type,
    body: d.body,
    endpointId: e.id,
    url: e.url,
    secretSealed: e.secret_sealed,
    previousSecretSealed: e.previous_secret_sealed ?? null,
    rateLimitPerSecond: e.rate_limit_per_second ?? null,
    tookOver: false,
  };
}

@Injectable()
export class WebhookRelayService implements OutboxHandler<RelayEndpoint> {
  readonly name = 'webhooks';
  /**
   * The addresses of these workspaces, enabled or not (a disabled one gets failed deliveries), with what a first
   * attempt sends.
   */
  readonly hearing = `SELECT e.workspace_id, e.id, e.triggers, e.disabled_at, e.url, e.secret_sealed,
    e.rate_limit_per_second, ${previousSecretSql('e')}
                        FROM webhook_endpoints e WHERE e.workspace_id = ANY($1::text[])`;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly happenings: HappeningDeliveries,
    private readonly firstAttempts: FirstAttemptsService,
  ) {}

  /**
   * The happenings' deliveries, written in the relay's transaction; their first attempts start after it
   * commits. As many as this process will start soon are stored with their first attempt claimed
   * (FirstAttemptsService.preclaimRoom), so sending them costs no claim of its own.
   */
  async handle(
    manager: EntityManager,
    rows: OutboxRow[],
    endpoints: RelayEndpoint[],
  ): Promise<(() => Promise<void>) | void> {
    const deliveries = await this.happenings.make(manager, rows, endpoints);
    if (deliveries.length === 0) return;
    let room = this.firstAttempts.preclaimRoom();
    for (const d of deliveries) {
      if (room === 0) break;
      if (d.state) continue;
      d.claimed = true;
      room--;
    }
    const claimedAt = this.firstAttempts.now();
    const created = await this.deliveries.insert(manager, deliveries);
    const made = new Map(deliveries.map((d) => [d.id, d]));
    const byId = new Map(endpoints.map((e) => [`${e.workspace_id}/${e.id}`, e]));
    const pending = created.filter((d) => d.state === 'pending');
    return () =>
      this.firstAttempts.start(
        pending.map(({ workspace_id: workspaceId, id: deliveryId, claimed }) => {
          if (!claimed) return { workspaceId, deliveryId };
          const d = made.get(deliveryId)!;
          const e = byId.get(`${workspaceId}/${d.endpointId}`)!;
          return { workspaceId, deliveryId, claimedAt, claimed: firstClaim(d, e) };
        }),
      );
  }
}
