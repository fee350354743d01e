// How long each kind of row is kept (interface.md "Delivery rules" Retention, decisions.md section 5),
// in one place; each owner's sweep deletes what is older.
const DAY_MS = 24 * 3600 * 1000;

export const RETENTION_MS = {
  /** Relayed outbox happenings. */
  outbox: 7 * DAY_MS,
  /** Automation runs and their logs, counted from the end of the run (a run still going is kept). */
  automationRuns: 30 * DAY_MS,
  /** Webhook deliveries and their attempts. */
  deliveries: 30 * DAY_MS,
  /** Idempotency keys: a repeat within this answers the first answer. */
  idempotencyKeys: 30 * DAY_MS,
  /** Heartbeat minutes: the view shows a week, the extra day covers time zones. */
  heartbeat: 8 * DAY_MS,
  /** The email door's webhook ids, long past the signature's tolerance. */
  doorReceipts: DAY_MS,
  /** Receipts of the third-party doors: their log, and replays of unsigned-time posts (GitHub), as long as idempotency keys. */
  thirdPartyDoorReceipts: 30 * DAY_MS,
  /** Outgoing webhook addresses' attempt counts: the success rate reads the last day; an hour of margin. */
  webhookHealth: DAY_MS + 3600 * 1000,
} as const;

/** The moment before which rows of this kind are deleted. */
export function retainedSince(kind: keyof typeof RETENTION_MS, now = Date.now()): Date {
  return new Date(now - RETENTION_MS[kind]);
}
