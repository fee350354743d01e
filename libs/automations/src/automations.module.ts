import { Module, OnModuleInit } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { MessagingModule } from '@app/messaging';
import { MergeParticipants } from '@app/people';
import { PersonDataParticipants, queueModule } from '@app/platform';
import { WebhooksModule } from '@app/webhooks';
import { AutomationsRepository } from './automations.repository';
import { AutomationsService } from './automations.service';
import { RunQueue } from './run-queue';
import { RunsRepository } from './runs.repository';
import { AutomationsDataParticipant } from './person-data.participant';
import { ADVANCE_RUN } from './jobs/run.job';

/** Shared by both apps: automations, runs and the automations queue's producer side. */
@Module({
  imports: [EventsModule, MessagingModule, WebhooksModule, queueModule(ADVANCE_RUN.queue)],
  providers: [AutomationsRepository, RunsRepository, RunQueue, AutomationsService, AutomationsDataParticipant],
  exports: [EventsModule, MessagingModule, AutomationsRepository, RunsRepository, RunQueue, AutomationsService],
})
export class AutomationsModule implements OnModuleInit {
  constructor(
    private readonly merges: MergeParticipants,
    private readonly runs: RunsRepository,
    private readonly personData: PersonDataParticipants,
    private readonly automationsData: AutomationsDataParticipant,
  ) {}

  /** A person merge moves their runs too, and an erasure removes them, in every app that merges or erases people. */
  onModuleInit(): void {
    this.merges.register(this.runs);
    this.personData.register(this.automationsData);
  }
}
