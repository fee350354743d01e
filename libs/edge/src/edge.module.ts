import { Global, Module } from '@nestjs/common';
import { Doors } from './http/door/door';
import { DoorReceiptsRepository } from './inbound/door-receipts.repository';

/** The doors (each declared once: http/door/door.ts), opened by their controllers, and the inbound receipts. */
@Global()
@Module({
  providers: [DoorReceiptsRepository, Doors],
  exports: [DoorReceiptsRepository, Doors],
})
export class EdgeModule {}
