// What a withdrawal writes besides the subscription (docs/webhooks.md#triggers-and-bodies): the timeline row
// unsubscribed and its happening, which fires unsubscribed and event. The ingest's unsubscribe action and
// UnsubscribeService both record through this one function.
import type { ListRow, WithdrawnVia } from '@app/people';
import { eventData, type IngestLog } from '../ingest/ingest-log';

export function recordWithdrawal(log: IngestLog, personId: string, list: ListRow, via: WithdrawnVia, at: Date): void {
  const named = { address: list.address, name: list.name };
  const row = log.timelineRow(personId, 'unsubscribed', at, { properties: { list: named, via }, detail: list.name });
  log.happen(personId, { unsubscribed: { list: named, via }, event: eventData(row) });
}
