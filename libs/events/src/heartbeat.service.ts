// docs/graphql.md#activity-and-charts: each post from a server or the website counts in a per-minute row (action,
// answer, origin, minute); no bodies, no addresses. Counts gather in memory and are added to the
// table every few seconds, so busy minutes do not contend on one row.
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { isUnavailable } from '@app/platform';
import { HeartbeatCount, TimelineRepository } from './timeline.repository';

const FLUSH_MS = 2_000;

@Injectable()
export class HeartbeatService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Heartbeat');
  private counts = new Map<string, HeartbeatCount>();
  private timer: NodeJS.Timeout | null = null;
  private minuteStart = -1;
  private minuteText = '';
  /** The flush under way: a read waits for it, or it would miss counts taken from memory but not yet saved. */
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly timeline: TimelineRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  count(workspaceId: string, action: string, answer: string, origin: string, times = 1): void {
    this.add({ workspace_id: workspaceId, minute: this.minute(Date.now()), action, answer, origin, count: times });
  }

  private add(counted: HeartbeatCount): void {
    const key = `${counted.workspace_id}|${counted.minute}|${counted.action}|${counted.answer}|${counted.origin}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += counted.count;
    else this.counts.set(key, counted);
  }

  /**
   * Saves what is counted; resolves once every count taken before the call is in the table (or kept after a failure).
   */
  flush(): Promise<void> {
    this.saving = this.saving.then(() => this.save());
    return this.saving;
  }

  private async save(): Promise<void> {
    if (this.counts.size === 0) return;
    const batch = [...this.counts.values()];
    this.counts = new Map();
    await this.timeline.addHeartbeat(batch).catch((error: Error) => {
      // An outage is logged once by itself: no line per flush while it lasts.
      if (!isUnavailable(error))
        this.logger.warn(`heartbeat not saved, keeping it for the next flush: ${error.message}`);
      for (const entry of batch) this.add(entry); // each count back in its own minute
    });
  }

  /** The minute of `now` as its row names it, made once a minute rather than per item (a batch counts 100). */
  private minute(now: number): string {
    const start = Math.floor(now / 60_000) * 60_000;
    if (start !== this.minuteStart) {
      this.minuteStart = start;
      this.minuteText = new Date(start).toISOString();
    }
    return this.minuteText;
  }

  read(workspaceId: string, since: Date) {
    return this.timeline.heartbeat(workspaceId, since);
  }
}
