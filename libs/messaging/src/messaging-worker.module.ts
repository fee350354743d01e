import { Module, OnModuleInit } from '@nestjs/common';
import { OutboxRelayService } from '@app/outbox';
import { ConfirmationMail } from './confirmation-mail';
import { EmailProcessor } from './jobs/email.processor';
import { MessagingModule } from './messaging.module';
import { BroadcastSender } from './broadcasts/broadcast-sender';
import { RecipientBatch } from './broadcasts/recipient-batch';
import { RecipientCheck } from './broadcasts/recipient-check';
import { RecipientTurn } from './broadcasts/recipient-turn';

/**
 * The worker's part: sending queued emails, the sweep that requeues lost ones, double opt-in's confirmations, and
 * broadcasts.
 */
@Module({
  imports: [MessagingModule],
  providers: [EmailProcessor, ConfirmationMail, RecipientTurn, RecipientCheck, RecipientBatch, BroadcastSender],
})
export class MessagingWorkerModule implements OnModuleInit {
  constructor(
    private readonly relay: OutboxRelayService,
    private readonly confirmations: ConfirmationMail,
  ) {}

  onModuleInit(): void {
    this.relay.register(this.confirmations);
  }
}
