import { BullModule } from '@nestjs/bullmq';
import { Module, OnModuleDestroy, Inject } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig, CONFIG, QUEUES } from '@app/core';
import { PeopleModule } from '@app/people';
import { EmailQueue } from './email-queue';
import { MessageEntity, TemplateEntity } from './message.entity';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';
import { EMAIL_PROVIDER } from './messaging.tokens';
import { createEmailProvider, EmailProvider } from './providers';
import { TemplatesRepository } from './templates.repository';

/** Shared by both apps: messages, templates, the provider and the email queue. */
@Module({
  imports: [PeopleModule, TypeOrmModule.forFeature([MessageEntity, TemplateEntity]), BullModule.registerQueue({ name: QUEUES.email })],
  providers: [
    MessagesRepository,
    MessagesService,
    TemplatesRepository,
    EmailQueue,
    {
      provide: EMAIL_PROVIDER,
      inject: [CONFIG],
      useFactory: (config: AppConfig) =>
        createEmailProvider({ smtpUrl: config.smtpUrl ?? undefined, resendApiKey: config.resendApiKey ?? undefined, resendApiUrl: config.resendApiUrl }),
    },
  ],
  exports: [PeopleModule, MessagesRepository, MessagesService, TemplatesRepository, EmailQueue, EMAIL_PROVIDER, BullModule],
})
export class MessagingModule implements OnModuleDestroy {
  constructor(@Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null) {}

  async onModuleDestroy(): Promise<void> {
    await this.provider?.close?.();
  }
}
