// docs/operations.md#failover: a BullMQ worker's blocking read ended by Redis itself (a master changed under it:
// "UNBLOCKED ... instance state changed", or a connection cut) is an 'error' event of the worker, which BullMQ
// retries by itself. With no listener it is printed as an unhandled error with its stack; here each worker of
// the process has one, and the line says what happened and that the worker carries on.
import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

@Injectable()
export class WorkerErrors implements OnApplicationBootstrap {
  private readonly logger = new Logger('Queues');

  constructor(private readonly discovery: DiscoveryService) {}

  /** BullMQ's explorer made the workers at module init: each processor's worker is there by now. */
  onApplicationBootstrap(): void {
    for (const { instance } of this.discovery.getProviders()) {
      if (!(instance instanceof WorkerHost)) continue;
      const worker = instance.worker;
      worker.on('error', (error: Error) =>
        this.logger.warn(`the ${worker.name} queue's worker: ${error.message}; it carries on`),
      );
    }
  }
}
