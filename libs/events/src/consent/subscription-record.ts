// What joining a list writes besides the subscription (docs/webhooks.md#triggers-and-bodies): the timeline row
// subscribed and its happening, which fires subscribed and event. A subscribe to a list without double opt-in
// records it at once (the ingest); one with double opt-in records it when the person confirms (ConfirmationService)
// and, until then, only asks messaging to send the confirmation (CONFIRMATION_REQUESTED).
import { Refusal } from '@app/platform';
import type { ListRow } from '@app/people';
import { eventData, type IngestLog } from '../ingest/ingest-log';

/**
 * The happening kind asking for a double opt-in's confirmation email: not a trigger, so webhooks and automations pass
 * it by (docs/decisions.md#double-opt-in-confirms-by-a-post); messaging's relay handler sends the email.
 */
/** The refusal of a post naming a list the workspace does not have. */
export const unknownList = (address: string) =>
  new Refusal(
    'unknown_list',
    `No list has the address "${address.slice(0, 80)}": create it in the workspace list settings first.`,
  );

export const CONFIRMATION_REQUESTED = 'confirmation_requested';

export function recordSubscription(log: IngestLog, personId: string, list: ListRow, at: Date): void {
  const named = { address: list.address, name: list.name };
  const row = log.timelineRow(personId, 'subscribed', at, { properties: { list: named }, detail: list.name });
  log.happen(personId, { subscribed: { list: named }, event: eventData(row) });
}

/** A pending subscription's request for its confirmation email (the list by id: the link names it so). */
export function requestConfirmation(log: IngestLog, personId: string, list: ListRow): void {
  log.happen(personId, { [CONFIRMATION_REQUESTED]: { list: { id: list.id, address: list.address, name: list.name } } });
}
