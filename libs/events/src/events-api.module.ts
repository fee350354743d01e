import { Module } from '@nestjs/common';
import { EventsModule } from './events.module';
import { PeopleResolver } from './graphql/people.resolver';
import { EventsController } from './http/events.controller';

/** The api's doors onto events: REST and GraphQL. */
@Module({
  imports: [EventsModule],
  controllers: [EventsController],
  providers: [PeopleResolver],
})
export class EventsApiModule {}
