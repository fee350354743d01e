import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, QuietNestLogger } from '@app/platform';
import { WorkerModule } from './worker.module';

/** Builds the worker (used by main.ts and by tests that need deliveries, sweeps or the relay). */
export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(new QuietNestLogger(app.get(Logger)));
  return app;
}
