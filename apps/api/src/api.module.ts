import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AppConfig, CoreModule, formatGraphqlError, loggerModule, MembersResolver, ObservabilityModule, WorkspaceResolver } from '@app/core';
import { EventsApiModule } from '@app/events';
import { McpApiModule } from '@app/mcp';
import { MessagingApiModule } from '@app/messaging';
import { WebhooksApiModule } from '@app/webhooks';
import { ExplorerAssetsController, explorerLandingPage } from './explorer/explorer';

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    const development = config.nodeEnv !== 'production';
    return {
      module: ApiModule,
      imports: [
        loggerModule(config, 'api'),
        CoreModule.forRoot(config),
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          path: '/graphql',
          autoSchemaFile: true,
          sortSchema: true,
          playground: false,
          introspection: development,
          // The explorer is served by the api itself (offline); production shows none (no CDN page either).
          plugins: [development ? explorerLandingPage('/graphql') : ApolloServerPluginLandingPageDisabled()],
          context: ({ req }: { req: unknown }) => ({ req }),
          formatError: formatGraphqlError,
        }),
        ObservabilityModule,
        EventsApiModule,
        MessagingApiModule,
        WebhooksApiModule,
        McpApiModule,
      ],
      controllers: development ? [ExplorerAssetsController] : [],
      providers: [WorkspaceResolver, MembersResolver],
    };
  }
}
