// The outbox's settings (docs/configuration.md#settings): how long relayed happenings are kept, which is how far back a
// webhook replay reaches (docs/webhooks.md#replaying-a-window).
import { int } from './config';

export interface OutboxSettings {
  /** Days relayed happenings stay in the outbox before the retention sweep deletes them. */
  outboxRetentionDays: number;
}

type Env = Record<string, string | undefined>;

export function outboxSettings(env: Env): OutboxSettings {
  return { outboxRetentionDays: int(env, 'OUTBOX_RETENTION_DAYS', 30, 1, 3_650) };
}
