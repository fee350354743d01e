import { Module } from '@nestjs/common';
import { EmailProcessor } from './jobs/email.processor';
import { MessagingModule } from './messaging.module';

/** The worker's part: sending queued emails, and the sweep that requeues lost ones. */
@Module({
  imports: [MessagingModule],
  providers: [EmailProcessor],
})
export class MessagingWorkerModule {}
