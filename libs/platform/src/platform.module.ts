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
