import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DoorReceiptsRepository, SweepRegistry } from '@app/core';
import { EMAIL_DOOR } from '@app/messaging';

/** Receipts of third-party doors are kept as long as idempotency keys (decisions.md section 5: 30 days). */
export const DOOR_RECEIPT_RETENTION_DAYS = 30;

@Injectable()
export class DoorReceiptsSweep implements OnModuleInit {
  constructor(
    private readonly receipts: DoorReceiptsRepository,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    const before = () => new Date(Date.now() - DOOR_RECEIPT_RETENTION_DAYS * 24 * 3600 * 1000);
    // The email door's receipts have their own, shorter sweep in messaging.
    this.sweeps.register('door-receipts', () => this.receipts.deleteBefore(before(), { except: [EMAIL_DOOR] }));
  }
}

/** The worker's side of the third-party doors: the receipts' retention. */
@Module({ providers: [DoorReceiptsSweep] })
export class DoorsWorkerModule {}
