import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DoorInterceptor, DoorPipeline } from './http/door/door-pipeline';
import { DoorReceiptsRepository } from './inbound/door-receipts.repository';

/** The doors' pipeline (authentication, rate limits, heartbeat counting) and the inbound receipts. */
@Global()
@Module({
  providers: [DoorReceiptsRepository, DoorPipeline, { provide: APP_INTERCEPTOR, useClass: DoorInterceptor }],
  exports: [DoorReceiptsRepository, DoorPipeline],
})
export class EdgeModule {}
