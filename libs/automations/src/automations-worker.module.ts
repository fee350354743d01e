// The worker's part of automations: the relay handler (triggers from the outbox), the run processor,
// the poll that queues again runs whose job was lost (Redis down or restarted, a worker killed), and
// the sweeps (due runs, retention of runs and their logs: 30 days after they end).
import { Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DAY_MS, DuePoll, retainedSince, SweepRegistry } from '@app/platform';
import { OutboxRelayService } from '@app/outbox';
import { AutomationRelayService } from './automation-relay.service';
import { AutomationsModule } from './automations.module';
import { RunProcessor } from './jobs/run.processor';
import { RunQueue } from './run-queue';
import { RunService } from './run.service';
import { RunsRepository } from './runs.repository';
import { HttpRequestStep } from './steps/http-request.step';
import { SendEmailStep } from './steps/send-email.step';

/** Automation runs and their logs, counted from the end of the run (a run still going is kept). */
const RUNS_KEPT_MS = 30 * DAY_MS;

@Module({
  imports: [AutomationsModule],
  providers: [AutomationRelayService, RunService, RunProcessor, HttpRequestStep, SendEmailStep],
})
export class AutomationsWorkerModule implements OnModuleInit, OnApplicationShutdown {
  // Equal job ids (run and step) make queueing again a no-op for jobs still in Redis.
  private readonly poll = new DuePoll('AutomationsWorker', {
    due: (graceMs, batch) => this.runs.due(graceMs, batch),
    enqueue: (due) => this.queue.enqueue(due),
  });

  constructor(
    private readonly relay: OutboxRelayService,
    private readonly relayHandler: AutomationRelayService,
    private readonly runs: RunsRepository,
    private readonly queue: RunQueue,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    this.relay.register(this.relayHandler);
    this.sweeps.register('automation-runs-due', () => this.poll.run());
    this.sweeps.register('automation-runs-retention', () => this.runs.deleteEndedBefore(retainedSince(RUNS_KEPT_MS)));
    this.poll.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poll.stop();
  }
}
