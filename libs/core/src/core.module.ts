import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from './config/config';
import { CONFIG } from './config/config.token';
import { dataSourceOptions } from './database/database';
import { typeormSql } from './database/sql';
import { HealthController } from './health/health.controller';
import { DoorInterceptor, DoorPipeline } from './http/door/door-pipeline';
import { OutboxWriter } from './outbox/outbox';
import { OutboxRelayService } from './outbox/outbox-relay.service';
import { createRedis, bullConnection, REDIS } from './redis/redis';
import { SweepRegistry } from './sweeps/sweeps';
import { WorkspacesRepository } from './workspaces/workspaces.repository';
import { WorkspacesService } from './workspaces/workspaces.service';
import { MembersService } from './workspaces/members.service';
import { SecretKeyGuard } from './auth/secret-key.guard';
import { GraphqlAuthGuard } from './auth/graphql-auth.guard';
import { RateLimits } from './rate-limits/rate-limits';
import { DoorReceiptsRepository } from './inbound/door-receipts.repository';

/** Shared infrastructure of both apps: configuration, database, Redis, queues, workspaces and keys. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(config), autoLoadEntities: true }),
        BullModule.forRoot({ connection: bullConnection(config.redisUrl), prefix: config.redisPrefix }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        {
          provide: REDIS,
          useFactory: () => createRedis(config.redisUrl),
        },
        // Plain classes (no Nest decorators), so the operator CLI loads them without Nest or TypeORM.
        { provide: WorkspacesRepository, useFactory: (dataSource: DataSource) => new WorkspacesRepository(typeormSql(dataSource)), inject: [DataSource] },
        { provide: WorkspacesService, useFactory: (repository: WorkspacesRepository) => new WorkspacesService(repository, config), inject: [WorkspacesRepository] },
        { provide: MembersService, useFactory: (repository: WorkspacesRepository) => new MembersService(repository), inject: [WorkspacesRepository] },
        SecretKeyGuard,
        GraphqlAuthGuard,
        OutboxWriter,
        OutboxRelayService,
        SweepRegistry,
        RateLimits,
        DoorReceiptsRepository,
        DoorPipeline,
        { provide: APP_INTERCEPTOR, useClass: DoorInterceptor },
      ],
      exports: [CONFIG, REDIS, WorkspacesRepository, WorkspacesService, MembersService, SecretKeyGuard, GraphqlAuthGuard, OutboxWriter, OutboxRelayService, SweepRegistry, RateLimits, DoorReceiptsRepository, DoorPipeline],
    };
  }
}
