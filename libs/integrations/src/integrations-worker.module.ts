import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DoorReceiptsRepository } from '@app/edge';
import { retainedSince, SweepRegistry } from '@app/platform';
import { EMAIL_DOOR } from '@app/messaging';


@Injectable()
export class DoorReceiptsSweep implements OnModuleInit {
  constructor(
    private readonly receipts: DoorReceiptsRepository,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    // The email door's receipts have their own, shorter sweep in messaging.
    this.sweeps.register('door-receipts', () => this.receipts.deleteBefore(retainedSince('thirdPartyDoorReceipts'), { except: [EMAIL_DOOR] }));
  }
}

/** The worker's side of the third-party doors: the receipts' retention. */
@Module({ providers: [DoorReceiptsSweep] })
export class IntegrationsWorkerModule {}
