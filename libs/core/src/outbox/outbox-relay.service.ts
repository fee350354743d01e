// The worker's relay: claims unrelayed outbox rows (SKIP LOCKED, so several workers share the work),
// lets every registered handler turn them into its own rows inside the same transaction, marks them
// relayed, and only after commit runs the handlers' follow-ups (queueing jobs). A crash before commit
// leaves the rows for the next pass; a crash after commit leaves durable rows that sweeps pick up.
// Writers publish a kick on Redis after they commit; a short poll covers kicks lost while Redis is down.
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { deleteInBatches } from '../database/delete-in-batches';
import { RETENTION_MS } from '../retention/retention';
import { outboxChannel, OutboxRow } from './outbox';

export interface OutboxHandler {
  readonly name: string;
  /** Runs inside the relay transaction; may return work to do once it has committed. */
  handle(manager: EntityManager, rows: OutboxRow[]): Promise<(() => Promise<void>) | void>;
}

const BATCH = 500;

const toOutboxRow = (r: Record<string, unknown>): OutboxRow => ({
  workspaceId: r.workspace_id as string,
  id: String(r.id),
  kind: r.kind as OutboxRow['kind'],
  personId: (r.person_id as string) ?? null,
  payload: r.payload as Record<string, unknown>,
  createdAt: r.created_at as Date,
});
/** Relayed happenings are kept this long, then the sweep deletes them (RETENTION_MS.outbox). */
export const OUTBOX_RETENTION_DAYS = RETENTION_MS.outbox / (24 * 3600 * 1000);
const POLL_MS = 250;

@Injectable()
export class OutboxRelayService implements OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly handlers: OutboxHandler[] = [];
  private listener: Redis | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  register(handler: OutboxHandler): void {
    this.handlers.push(handler);
  }

  /** Listens for kicks on Redis and polls as a fallback. */
  async start(): Promise<void> {
    this.stopped = false;
    this.listener = new Redis(this.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    this.listener.on('error', (error) => this.logger.warn(`outbox listener: ${error.message}`));
    this.listener.on('message', () => this.kick());
    this.listener.subscribe(outboxChannel(this.config)).catch((error: Error) => this.logger.warn(`polling only: ${error.message}`));
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.kick();
  }

  /** Starts a relay pass, or asks the running one to go round again. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          while ((await this.relayOnce()) === BATCH && !this.stopped);
        } catch (error) {
          this.logger.error(`relay pass failed: ${(error as Error).message}`);
        }
      } while (this.again && !this.stopped);
      this.running = null;
    })();
  }

  /** One batch; returns how many rows it relayed. Exposed for tests. */
  async relayOnce(): Promise<number> {
    const followUps: Array<() => Promise<void>> = [];
    const count = await this.dataSource.transaction(async (manager) => {
      const raw: Array<Record<string, unknown>> = await manager.query(
        `SELECT workspace_id, id, kind, person_id, payload, created_at FROM outbox
          WHERE relayed_at IS NULL ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (raw.length === 0) return 0;
      const rows = raw.map(toOutboxRow);
      for (const handler of this.handlers) {
        const followUp = await handler.handle(manager, rows);
        if (followUp) followUps.push(followUp);
      }
      await manager.query(`UPDATE outbox SET relayed_at = now() WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });
    for (const followUp of followUps) {
      await followUp().catch((error: Error) => this.logger.warn(`after relay: ${error.message}`));
    }
    return count;
  }

  /**
   * Happenings of one workspace that occurred in [since, until) and were relayed, oldest first, a page
   * at a time after `afterId` (replays read them again while they are retained).
   */
  async relayedBetween(workspaceId: string, since: Date, until: Date, afterId: string | null, limit: number): Promise<OutboxRow[]> {
    const raw: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT workspace_id, id, kind, person_id, payload, created_at FROM outbox
        WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 AND relayed_at IS NOT NULL AND id > $4
        ORDER BY id LIMIT $5`,
      [workspaceId, since, until, afterId ?? '0', limit],
    );
    return raw.map(toOutboxRow);
  }

  /** Retention: deletes happenings relayed before `before`, a batch at a time; unrelayed ones stay. */
  deleteRelayedBefore(before: Date): Promise<number> {
    return deleteInBatches(this.dataSource, 'outbox', 'relayed_at < $2', [before]);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.listener?.disconnect();
  }
}
