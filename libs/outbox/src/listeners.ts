// A handler listens only in the workspaces where it has something to act on (OutboxHandler.listen).
import type { OutboxListener } from './outbox-relay.service';
import type { OutboxRow } from './outbox';

/** A listener in the workspaces of `found` (rows the handler acts on), or null when there are none. */
export function listenerOver(found: ReadonlyArray<{ workspace_id: string }>, handle: (rows: OutboxRow[]) => ReturnType<OutboxListener['handle']>): OutboxListener | null {
  if (found.length === 0) return null;
  return { workspaceIds: [...new Set(found.map((row) => row.workspace_id))], handle };
}
