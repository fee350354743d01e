// The rows and records of deliveries and their attempts, as DeliveriesRepository reads and writes them.

export interface NewDelivery {
  workspaceId: string;
  id: string;
  endpointId: string;
  outboxId: string | null;
  type: string;
  body: string;
  /**
   * The end of `body` that other deliveries of the same insert end with too (the body after the id, the
   * same for every address that hears a happening): the insert sends it once for them all.
   */
  bodyTail?: string;
  /** failed: made for a disabled address, kept so it can be recovered; pending (the default) otherwise. */
  state?: 'pending' | 'failed';
  /** When it is due, from now (replays are paced); now by default. */
  dueInMs?: number;
  /** Its first attempt claimed as it is stored (the relay, which sends it at once): attempts 1, a live claim. */
  claimed?: boolean;
}

export interface ClaimedAttempt {
  /** The number of this attempt (1 for the first). */
  number: number;
  type: string;
  body: string;
  endpointId: string;
  url: string;
  secretSealed: string;
  /** The secret a rotation replaced, while it still signs. */
  previousSecretSealed: string | null;
  rateLimitPerSecond: number | null;
  /** The previous attempt was claimed and never finished: its worker stopped mid-attempt. */
  tookOver: boolean;
}

export interface DeliveryKey {
  workspaceId: string;
  deliveryId: string;
}

export interface Settlement {
  state: string;
  /** When still pending: how long until the next attempt is due. */
  dueInMs: number;
}

export interface AttemptRecord {
  number: number;
  startedAt: Date;
  ok: boolean;
  durationMs: number;
  status?: number;
  bodyExcerpt?: string;
  error?: string;
  /** Wait before the next attempt; null when this was the last one. */
  nextDelayMs: number | null;
}

export interface DeliveryRow {
  workspace_id: string;
  id: string;
  endpoint_id: string;
  type: string;
  body: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  /** Its attempts, first first, when read in the same statement as the row (one snapshot: they agree with it). */
  attempt_rows?: AttemptRow[];
}

export interface AttemptRow {
  delivery_id: string;
  number: number;
  started_at: Date;
  duration_ms: number | null;
  status_code: number | null;
  body_excerpt: string | null;
  error: string | null;
}
