// What a withdrawal writes besides the subscription (docs/webhooks.md#triggers-and-bodies): the timeline row
// unsubscribed and its happening, which fires unsubscribed and event. The ingest's unsubscribe action and
// UnsubscribeService both record through this one function.
import type { EntityManager } from 'typeorm';
import type { ActionSuccess } from '@app/wire';
import { cameOff, type ListRow, type SubscriptionsRepository, type WithdrawnVia } from '@app/people';
import { eventData, type IngestLog } from '../ingest/ingest-log';

export function recordWithdrawal(log: IngestLog, personId: string, list: ListRow, via: WithdrawnVia, at: Date): void {
  const named = { address: list.address, name: list.name };
  const row = log.timelineRow(personId, 'unsubscribed', at, { properties: { list: named, via }, detail: list.name });
  log.happen(personId, { unsubscribed: { list: named, via }, event: eventData(row) });
}

/**
 * The unsubscribe action inside the ingest transaction (withdrawn via api, no ip: a server posted it): `personId`
 * absent is someone unknown, on no list, and no one is made.
 */
export async function withdrawByAction(
  m: EntityManager,
  subscriptions: SubscriptionsRepository,
  log: IngestLog,
  { workspaceId, personId, list, at }: { workspaceId: string; personId?: string; list: ListRow; at: Date },
): Promise<ActionSuccess> {
  if (!personId) return { ok: true, status: 'not_subscribed' };
  const changed = await subscriptions.withdraw(m, {
    workspaceId,
    personId,
    listIds: [list.id],
    via: 'api',
    ip: null,
    at,
  });
  for (const off of changed) if (cameOff(off.was)) recordWithdrawal(log, personId, off, 'api', at);
  return { ok: true, status: changed.length ? 'unsubscribed' : 'not_subscribed', id: personId };
}
