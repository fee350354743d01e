// The migrations of outbox's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { OutboxSchema1763856000003 } from './1763856000003-outbox-schema';
import { OutboxRetention1764115200000 } from './1764115200000-outbox-retention';
import { OutboxHighWaterMark1765100000000 } from './1765100000000-outbox-high-water-mark';
import { OutboxLz41766850000001 } from './1766850000001-outbox-lz4';

export const OUTBOX_MIGRATIONS = [
  OutboxSchema1763856000003,
  OutboxRetention1764115200000,
  OutboxHighWaterMark1765100000000,
  OutboxLz41766850000001,
];
