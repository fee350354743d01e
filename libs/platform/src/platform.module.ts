import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from './config/config';
import { CONFIG } from './config/config.token';
import { dataSourceOptions } from './database/database';
import { Migration, MIGRATION_LIST } from './database/migration-state';
import { HealthController } from './health/health.controller';
import { MetricsRegistry } from './observability/metrics-registry';
import { PersonDataParticipants } from './person-data/person-data';
import { RateLimits } from './rate-limits/rate-limits';
import { createRedis, bullConnection, REDIS } from './redis/redis';
import { SweepRegistry } from './sweeps/sweeps';

/** What both apps run on: settings, PostgreSQL, Redis, queues, sweeps, rate limits and health. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, migrations: Migration[]): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions(config)),
        BullModule.forRoot({ connection: bullConnection(config.redisUrl), prefix: config.redisPrefix }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: MIGRATION_LIST, useValue: migrations },
        { provide: REDIS, useFactory: () => createRedis(config.redisUrl, {}, config.redisCommandTimeoutMs) },
        SweepRegistry,
        RateLimits,
        MetricsRegistry,
        PersonDataParticipants,
      ],
      exports: [CONFIG, REDIS, SweepRegistry, RateLimits, MetricsRegistry, PersonDataParticipants],
    };
  }
}
