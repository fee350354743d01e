import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { MessagingModule } from '@app/messaging';
import { MergeParticipants } from '@app/people';
import { WebhooksModule } from '@app/webhooks';
import { AutomationsRepository } from './automations.repository';
import { AutomationsService } from './automations.service';
import { RunQueue } from './run-queue';
import { RunsRepository } from './runs.repository';
import { ADVANCE_RUN } from './jobs/run.job';

/** Shared by both apps: automations, runs and the automations queue's producer side. */
@Module({
  imports: [EventsModule, MessagingModule, WebhooksModule, BullModule.registerQueue({ name: ADVANCE_RUN.queue })],
  providers: [AutomationsRepository, RunsRepository, RunQueue, AutomationsService],
  exports: [EventsModule, MessagingModule, AutomationsRepository, RunsRepository, RunQueue, AutomationsService],
})
export class AutomationsModule implements OnModuleInit {
  constructor(
    private readonly merges: MergeParticipants,
    private readonly runs: RunsRepository,
  ) {}

  /** A person merge moves their runs too, in every app that merges people. */
  onModuleInit(): void {
    this.merges.register(this.runs);
  }
}
