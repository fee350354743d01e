import { Module } from '@nestjs/common';
import { DeliveryResolver, EndpointsResolver } from './graphql/endpoints.resolver';
import { EndpointReplaysResolver } from './graphql/replays.resolver';
import { WebhooksModule } from './webhooks.module';

/** The api's door onto outgoing webhooks: GraphQL. */
@Module({
  imports: [WebhooksModule],
  providers: [EndpointsResolver, DeliveryResolver, EndpointReplaysResolver],
})
export class WebhooksApiModule {}
