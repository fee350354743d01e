// The worker's part of automations: the relay handler (triggers from the outbox), the run processor,
// the poll that queues again runs whose job was lost (Redis down or restarted, a worker killed), and
// the sweeps (due runs, retention of runs and their logs: 30 days after they end).
import { Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OutboxRelayService, SweepRegistry } from '@app/core';
import { AutomationRelayService } from './automation-relay.service';
import { AutomationsModule } from './automations.module';
import { RunProcessor } from './jobs/run.processor';
import { RunQueue } from './run-queue';
import { RunService } from './run.service';
import { RunsRepository } from './runs.repository';
import { HttpRequestStep } from './steps/http-request.step';
import { SendEmailStep } from './steps/send-email.step';

/** How often the worker looks for due runs that have no job (besides the minute sweep). */
export const RUNS_DUE_POLL_MS = 2_000;
/** A due run is left to its job for this long before the poll queues it again. */
const DUE_GRACE_MS = 2_000;
const DUE_BATCH = 1_000;
export const RUN_RETENTION_DAYS = 30;

@Module({
  imports: [AutomationsModule],
  providers: [AutomationRelayService, RunService, RunProcessor, HttpRequestStep, SendEmailStep],
})
export class AutomationsWorkerModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AutomationsWorker');
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<number> | null = null;

  constructor(
    private readonly relay: OutboxRelayService,
    private readonly relayHandler: AutomationRelayService,
    private readonly runs: RunsRepository,
    private readonly queue: RunQueue,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    this.relay.register(this.relayHandler);
    this.sweeps.register('automation-runs-due', () => this.queueDue());
    this.sweeps.register('automation-runs-retention', () => this.runs.deleteEndedBefore(new Date(Date.now() - RUN_RETENTION_DAYS * 24 * 3600 * 1000)));
    this.timer = setInterval(() => void this.queueDue().catch((error: Error) => this.logger.warn(`due poll: ${error.message}`)), RUNS_DUE_POLL_MS);
    this.timer.unref();
  }

  /** Queues every due, unheld run again; equal job ids make this a no-op for jobs still queued. */
  queueDue(): Promise<number> {
    this.polling ??= (async () => {
      try {
        const due = await this.runs.due(DUE_GRACE_MS, DUE_BATCH);
        await this.queue.enqueue(due);
        return due.length;
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.polling?.catch(() => undefined);
  }
}
