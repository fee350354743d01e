import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig, CONFIG, typeormSql } from '@app/platform';
import { GraphqlAuthGuard } from './auth/graphql-auth.guard';
import { SecretKeyGuard } from './auth/secret-key.guard';
import { MembersService } from './members.service';
import { WorkspacesRepository } from './workspaces.repository';
import { WorkspacesService } from './workspaces.service';
import { ConnectionsRepository } from './sign-in/connections.repository';
import { ConnectionsService } from './sign-in/connections.service';
import { SessionsRepository } from './sign-in/sessions.repository';
import { SessionsService, SignInClock } from './sign-in/sessions.service';
import { SignInSweep } from './sign-in/sign-in.sweep';
import { WorkspaceLimitsRepository } from './limits/workspace-limits.repository';
import { WorkspaceLimitsService } from './limits/workspace-limits.service';

/** Workspaces, members and keys, and the guards that turn a key into an actor. */
@Global()
@Module({
  providers: [
    // Plain classes (no Nest decorators), so the operator CLI loads them without Nest or TypeORM.
    {
      provide: WorkspacesRepository,
      useFactory: (dataSource: DataSource) => new WorkspacesRepository(typeormSql(dataSource)),
      inject: [DataSource],
    },
    {
      provide: WorkspacesService,
      useFactory: (repository: WorkspacesRepository, config: AppConfig) => new WorkspacesService(repository, config),
      inject: [WorkspacesRepository, CONFIG],
    },
    {
      provide: MembersService,
      useFactory: (repository: WorkspacesRepository) => new MembersService(repository),
      inject: [WorkspacesRepository],
    },
    // People's sessions and connectors' connections.
    { provide: SignInClock, useValue: new SignInClock() },
    {
      provide: SessionsRepository,
      useFactory: (dataSource: DataSource) => new SessionsRepository(typeormSql(dataSource)),
      inject: [DataSource],
    },
    {
      provide: ConnectionsRepository,
      useFactory: (dataSource: DataSource) => new ConnectionsRepository(typeormSql(dataSource)),
      inject: [DataSource],
    },
    {
      provide: SessionsService,
      useFactory: (
        repository: SessionsRepository,
        workspaces: WorkspacesService,
        config: AppConfig,
        clock: SignInClock,
      ) => new SessionsService(repository, workspaces, config, clock),
      inject: [SessionsRepository, WorkspacesService, CONFIG, SignInClock],
    },
    {
      provide: ConnectionsService,
      useFactory: (repository: ConnectionsRepository, config: AppConfig, clock: SignInClock) =>
        new ConnectionsService(repository, config, clock),
      inject: [ConnectionsRepository, CONFIG, SignInClock],
    },
    SignInSweep,
    {
      provide: WorkspaceLimitsRepository,
      useFactory: (dataSource: DataSource) => new WorkspaceLimitsRepository(typeormSql(dataSource)),
      inject: [DataSource],
    },
    WorkspaceLimitsService,
    SecretKeyGuard,
    GraphqlAuthGuard,
  ],
  exports: [
    WorkspacesRepository,
    WorkspacesService,
    MembersService,
    SecretKeyGuard,
    GraphqlAuthGuard,
    SignInClock,
    SessionsService,
    ConnectionsService,
    SessionsRepository,
    WorkspaceLimitsService,
  ],
})
export class WorkspacesModule {}
