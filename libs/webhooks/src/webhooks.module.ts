import { Module, OnModuleInit } from '@nestjs/common';
import { PersonDataParticipants, queueModule } from '@app/platform';
import { PeopleModule } from '@app/people';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
import { DeliveryQueue } from './delivery.service';
import { DeliveryRecoveryService } from './delivery-recovery.service';
import { EndpointsRepository } from './endpoints.repository';
import { EndpointsService } from './endpoints.service';
import { HappeningDeliveries } from './happening-deliveries';
import { ReplaysRepository } from './replays.repository';
import { AddressResolver } from './sending/address-resolver';
import { DELIVER } from './jobs/delivery.job';
import { DeliveryGauges } from './delivery-gauges';
import { WebhooksDataParticipant } from './person-data.participant';

/** Shared by both apps: endpoints, deliveries and the delivery queue's producer side. */
@Module({
  imports: [PeopleModule, queueModule(DELIVER.queue)],
  providers: [
    EndpointsRepository,
    DeliveriesRepository,
    DeliveryClaimsRepository,
    DeliveryQueue,
    EndpointsService,
    HappeningDeliveries,
    DeliveryRecoveryService,
    ReplaysRepository,
    AddressResolver,
    DeliveryGauges,
    WebhooksDataParticipant,
  ],
  exports: [
    EndpointsRepository,
    DeliveriesRepository,
    DeliveryClaimsRepository,
    DeliveryQueue,
    EndpointsService,
    HappeningDeliveries,
    DeliveryRecoveryService,
    ReplaysRepository,
    AddressResolver,
  ],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly personData: PersonDataParticipants,
    private readonly webhooksData: WebhooksDataParticipant,
  ) {}

  onModuleInit(): void {
    this.personData.register(this.webhooksData);
  }
}
