import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from './config/config';
import { CONFIG } from './config/config.token';
import { dataSourceOptions } from './database/database';
import { HealthController } from './health/health.controller';
import { DoorInterceptor } from './http/door';
import { OutboxWriter } from './outbox/outbox';
import { OutboxRelayService } from './outbox/outbox-relay.service';
import { createRedis, bullConnection, REDIS } from './redis/redis';
import { SweepRegistry } from './sweeps/sweeps';
import { ApiKeyEntity, MemberEntity, WorkspaceEntity } from './workspaces/workspace.entity';
import { WorkspacesRepository } from './workspaces/workspaces.repository';
import { WorkspacesService } from './workspaces/workspaces.service';
import { MembersService } from './workspaces/members.service';
import { SecretKeyGuard } from './auth/secret-key.guard';
import { GraphqlAuthGuard } from './auth/graphql-auth.guard';
import { RateLimits } from './rate-limits/rate-limits';

/** Shared infrastructure of both apps: configuration, database, Redis, queues, workspaces and keys. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(config), autoLoadEntities: true }),
        TypeOrmModule.forFeature([WorkspaceEntity, MemberEntity, ApiKeyEntity]),
        BullModule.forRoot({ connection: bullConnection(config.redisUrl), prefix: config.redisPrefix }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: config },
        {
          provide: REDIS,
          useFactory: () => createRedis(config.redisUrl),
        },
        WorkspacesRepository,
        WorkspacesService,
        MembersService,
        SecretKeyGuard,
        GraphqlAuthGuard,
        OutboxWriter,
        OutboxRelayService,
        SweepRegistry,
        RateLimits,
        { provide: APP_INTERCEPTOR, useClass: DoorInterceptor },
      ],
      exports: [CONFIG, REDIS, WorkspacesRepository, WorkspacesService, MembersService, SecretKeyGuard, GraphqlAuthGuard, OutboxWriter, OutboxRelayService, SweepRegistry, RateLimits],
    };
  }
}
