import { Module } from '@nestjs/common';
import { EventsModule } from './events.module';
import { EventsExportModule } from './export/events-export.module';
import { PeopleResolver, PersonConnectionResolver } from './graphql/people.resolver';
import { ListsResolver } from './graphql/lists.resolver';
import { ActivityResolver } from './graphql/activity.resolver';
import { ChartResolver } from './graphql/chart.resolver';
import { FunnelResolver } from './graphql/funnel.resolver';
import { LiveEventsResolver } from './graphql/live-events.resolver';
import { OverviewResolver } from './graphql/overview.resolver';
import { PersonDataResolver } from './graphql/person-data.resolver';
import { PersonDataController } from './http/person-data.controller';
import { EventsController } from './http/events.controller';
import { SegmentController } from './http/segment.controller';
import { PublicDoorGuard } from './http/public-door.guard';
import { WebsiteEndpointsController } from './http/website-endpoints.controller';
import { PersonSegmentsResolver, SegmentsResolver } from './segments/graphql/segments.resolver';
import { TrackScript } from './tag/track-script.service';

/** The api's doors onto events: REST for servers, the website endpoints and tag, GraphQL. */
@Module({
  imports: [EventsModule, EventsExportModule],
  controllers: [EventsController, WebsiteEndpointsController, PersonDataController, SegmentController],
  providers: [
    PeopleResolver,
    PersonConnectionResolver,
    ListsResolver,
    ActivityResolver,
    ChartResolver,
    FunnelResolver,
    LiveEventsResolver,
    OverviewResolver,
    PersonDataResolver,
    SegmentsResolver,
    PersonSegmentsResolver,
    TrackScript,
    PublicDoorGuard,
  ],
})
export class EventsApiModule {}
