import { Global, Module, OnModuleInit } from '@nestjs/common';
import { PersonDataParticipants } from '@app/platform';
import { OutboxWriter } from './outbox';
import { OutboxGauges } from './outbox-gauges';
import { OutboxRelayService } from './outbox-relay.service';
import { OutboxDataParticipant } from './person-data.participant';
import { OutboxRestoreCheck } from './restore-repair';

/** The outbox: its writer for every context's transactions, and the relay the worker runs. */
@Global()
@Module({
  providers: [OutboxWriter, OutboxRelayService, OutboxGauges, OutboxDataParticipant, OutboxRestoreCheck],
  exports: [OutboxWriter, OutboxRelayService],
})
export class OutboxModule implements OnModuleInit {
  constructor(
    private readonly personData: PersonDataParticipants,
    private readonly outboxData: OutboxDataParticipant,
  ) {}

  onModuleInit(): void {
    this.personData.register(this.outboxData);
  }
}
