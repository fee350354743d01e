import { Global, Module } from '@nestjs/common';
import { OutboxWriter } from './outbox';
import { OutboxGauges } from './outbox-gauges';
import { OutboxRelayService } from './outbox-relay.service';

/** The outbox: its writer for every context's transactions, and the relay the worker runs. */
@Global()
@Module({ providers: [OutboxWriter, OutboxRelayService, OutboxGauges], exports: [OutboxWriter, OutboxRelayService] })
export class OutboxModule {}
