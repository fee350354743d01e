import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig, CONFIG, typeormSql } from '@app/platform';
import { GraphqlAuthGuard } from './auth/graphql-auth.guard';
import { SecretKeyGuard } from './auth/secret-key.guard';
import { MembersService } from './members.service';
import { WorkspacesRepository } from './workspaces.repository';
import { WorkspacesService } from './workspaces.service';

/** Workspaces, members and keys, and the guards that turn a key into an actor. */
@Global()
@Module({
  providers: [
    // Plain classes (no Nest decorators), so the operator CLI loads them without Nest or TypeORM.
    { provide: WorkspacesRepository, useFactory: (dataSource: DataSource) => new WorkspacesRepository(typeormSql(dataSource)), inject: [DataSource] },
    { provide: WorkspacesService, useFactory: (repository: WorkspacesRepository, config: AppConfig) => new WorkspacesService(repository, config), inject: [WorkspacesRepository, CONFIG] },
    { provide: MembersService, useFactory: (repository: WorkspacesRepository) => new MembersService(repository), inject: [WorkspacesRepository] },
    SecretKeyGuard,
    GraphqlAuthGuard,
  ],
  exports: [WorkspacesRepository, WorkspacesService, MembersService, SecretKeyGuard, GraphqlAuthGuard],
})
export class WorkspacesModule {}
