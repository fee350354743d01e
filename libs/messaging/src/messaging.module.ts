import { BullModule } from '@nestjs/bullmq';
import { Inject, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppConfig, CONFIG, PersonDataParticipants, queueModule } from '@app/platform';
import { EventsModule } from '@app/events';
import { MergeParticipants } from '@app/people';
import { EmailQueue } from './email-queue';
import { EmailStandingService } from './email-standing.service';
import { EmailStandingsRepository } from './email-standings.repository';
import { PreferencesService } from './preferences.service';
import { ConfirmationLinksService } from './confirmation-links.service';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';
import { MessageRenderer } from './render/message-renderer';
import { MessagingDataParticipant } from './person-data.participant';
import { EMAIL_PROVIDER } from './messaging.tokens';
import { createEmailProvider, EmailProvider } from './providers';
import { TemplatesRepository } from './templates.repository';
import { SEND_EMAIL } from './jobs/email.job';
import { BroadcastMailer } from './broadcasts/broadcast-mail';
import { BroadcastMovesService } from './broadcasts/broadcast-moves.service';
import { BroadcastRecipientsRepository } from './broadcasts/broadcast-recipients.repository';
import { BroadcastsRepository } from './broadcasts/broadcasts.repository';
import { BroadcastsService } from './broadcasts/broadcasts.service';

/** Shared by both apps: messages, templates, the provider and the email queue. */
@Module({
  imports: [EventsModule, queueModule(SEND_EMAIL.queue)],
  providers: [
    MessagesRepository,
    MessagesService,
    MessageRenderer,
    TemplatesRepository,
    EmailQueue,
    MessagingDataParticipant,
    EmailStandingsRepository,
    EmailStandingService,
    PreferencesService,
    ConfirmationLinksService,
    BroadcastsRepository,
    BroadcastRecipientsRepository,
    BroadcastsService,
    BroadcastMovesService,
    BroadcastMailer,
    {
      provide: EMAIL_PROVIDER,
      inject: [CONFIG],
      useFactory: (config: AppConfig) =>
        createEmailProvider({
          smtpUrl: config.smtpUrl ?? undefined,
          resendApiKey: config.resendApiKey ?? undefined,
          resendApiUrl: config.resendApiUrl,
          dkim: config.dkim,
        }),
    },
  ],
  exports: [
    EventsModule,
    MessagesRepository,
    MessagesService,
    MessageRenderer,
    TemplatesRepository,
    EmailQueue,
    EMAIL_PROVIDER,
    BullModule,
    EmailStandingService,
    PreferencesService,
    ConfirmationLinksService,
    BroadcastsRepository,
    BroadcastRecipientsRepository,
    BroadcastsService,
    BroadcastMovesService,
    BroadcastMailer,
  ],
})
export class MessagingModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    private readonly merges: MergeParticipants,
    private readonly messages: MessagesRepository,
    private readonly personData: PersonDataParticipants,
    private readonly messagingData: MessagingDataParticipant,
    private readonly standings: EmailStandingsRepository,
  ) {}

  onModuleInit(): void {
    this.merges.register(this.messages);
    this.merges.register(this.standings);
    this.personData.register(this.messagingData);
  }

  async onModuleDestroy(): Promise<void> {
    await this.provider?.close?.();
  }
}
