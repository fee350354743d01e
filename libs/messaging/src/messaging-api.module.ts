import { Module } from '@nestjs/common';
import { EmailDoorService } from './email-door.service';
import { EmailStandingResolver } from './graphql/email-standing.resolver';
import { MessagingResolver, PersonMessagesResolver, TimelineEmailResolver } from './graphql/messaging.resolver';
import { PersonMessagesRepository } from './person-messages.repository';
import { TemplatesService } from './templates.service';
import { EmailDoorController } from './http/email-door.controller';
import { MessagesController } from './http/messages.controller';
import { MessagingModule } from './messaging.module';
import { BroadcastRecipientsResolver, BroadcastsResolver } from './broadcasts/graphql/broadcasts.resolver';

/** The api's doors onto messaging: REST, the email door and GraphQL. */
@Module({
  imports: [MessagingModule],
  controllers: [MessagesController, EmailDoorController],
  providers: [
    EmailDoorService,
    TemplatesService,
    PersonMessagesRepository,
    MessagingResolver,
    PersonMessagesResolver,
    TimelineEmailResolver,
    EmailStandingResolver,
    BroadcastsResolver,
    BroadcastRecipientsResolver,
  ],
  exports: [MessagingModule, TemplatesService],
})
export class MessagingApiModule {}
