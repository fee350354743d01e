import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from './config/config';
import { CONFIG } from './config/config.token';
import { dataSourceOptions } from './database/database';
import { Migration, MIGRATION_LIST } from './database/migration-state';
import { READ_DATABASE, readDatabase } from './database/read-database';
import { HealthController } from './health/health.controller';
import { MetricsRegistry } from './observability/metrics-registry';
import { PersonDataParticipants } from './person-data/person-data';
import { QueueConnections } from './queues/queue-module';
import { RateLimits } from './rate-limits/rate-limits';
import { createRedis, bullConnection, REDIS } from './redis/redis';
import { SweepRegistry } from './sweeps/sweeps';
import { Clock, CLOCK, SYSTEM_CLOCK } from './time/clock';

/** What both apps run on: settings, PostgreSQL, Redis, queues, sweeps, rate limits and health. */
@Global()
@Module({})
export class PlatformModule {
  /** `clock` is what timing code reads and waits on (a test passes one it moves by hand). */
  static forRoot(config: AppConfig, migrations: Migration[], clock: Clock = SYSTEM_CLOCK): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions(config, undefined, clock)),
        BullModule.forRoot({ connection: bullConnection(config.redisUrl), prefix: config.redisPrefix }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        { provide: MIGRATION_LIST, useValue: migrations },
        {
          provide: READ_DATABASE,
          inject: [DataSource],
          useFactory: (primary: DataSource) => readDatabase(config, primary),
        },
        { provide: REDIS, useFactory: () => createRedis(config) },
        SweepRegistry,
        RateLimits,
        MetricsRegistry,
        PersonDataParticipants,
        QueueConnections,
      ],
      exports: [
        CONFIG,
        CLOCK,
        REDIS,
        READ_DATABASE,
        SweepRegistry,
        RateLimits,
        MetricsRegistry,
        PersonDataParticipants,
        QueueConnections,
      ],
    };
  }
}
