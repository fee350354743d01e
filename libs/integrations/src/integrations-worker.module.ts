import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DoorReceiptsRepository } from '@app/edge';
import { retainedSince, SweepRegistry } from '@app/platform';
import { IDEMPOTENCY_KEYS_KEPT_MS } from '@app/events';
import { EMAIL_DOOR } from '@app/messaging';

/**
 * Receipts of the third-party doors: their log, and replays of unsigned-time posts (GitHub), as long as idempotency
 * keys.
 */
const RECEIPTS_KEPT_MS = IDEMPOTENCY_KEYS_KEPT_MS;

@Injectable()
export class DoorReceiptsSweep implements OnModuleInit {
  constructor(
    private readonly receipts: DoorReceiptsRepository,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    // The email door's receipts have their own, shorter sweep in messaging.
    this.sweeps.register('door-receipts', () =>
      this.receipts.deleteBefore(retainedSince(RECEIPTS_KEPT_MS), { except: [EMAIL_DOOR] }),
    );
  }
}

/** The worker's side of the third-party doors: the receipts' retention. */
@Module({ providers: [DoorReceiptsSweep] })
export class IntegrationsWorkerModule {}
