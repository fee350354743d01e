import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { PeopleModule } from '@app/people';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryQueue } from './delivery.service';
import { DeliveryRecoveryService } from './delivery-recovery.service';
import { EndpointsRepository } from './endpoints.repository';
import { EndpointsService } from './endpoints.service';
import { HappeningDeliveries } from './happening-deliveries';
import { AddressResolver } from './sending/address-resolver';
import { DELIVER } from './jobs/delivery.job';
import { DeliveryGauges } from './delivery-gauges';

/** Shared by both apps: endpoints, deliveries and the delivery queue's producer side. */
@Module({
  imports: [PeopleModule, BullModule.registerQueue({ name: DELIVER.queue })],
  providers: [EndpointsRepository, DeliveriesRepository, DeliveryQueue, EndpointsService, HappeningDeliveries, DeliveryRecoveryService, AddressResolver, DeliveryGauges],
  exports: [EndpointsRepository, DeliveriesRepository, DeliveryQueue, EndpointsService, HappeningDeliveries, DeliveryRecoveryService, AddressResolver],
})
export class WebhooksModule {}
