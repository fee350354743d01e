import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AppConfig, CoreModule, GRAPHQL_PARSE_OPTIONS, loggerModule, queryLimitsPlugin, WorkspaceResolver } from '@app/core';
import { EventsApiModule } from '@app/events';
import { McpApiModule } from '@app/mcp';
import { MessagingApiModule } from '@app/messaging';
import { WebhooksApiModule } from '@app/webhooks';

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
          plugins: [queryLimitsPlugin(config.graphqlStatementTimeoutMs), ...(development ? [ApolloServerPluginLandingPageLocalDefault({ embed: true })] : [])],
          parseOptions: GRAPHQL_PARSE_OPTIONS,
          context: ({ req }: { req: unknown }) => ({ req }),
          formatError: (formatted) => ({
            message: formatted.message,
            path: formatted.path,
            extensions: { code: formatted.extensions?.code ?? 'server_error', status: formatted.extensions?.status },
          }),
        }),
        EventsApiModule,
        MessagingApiModule,
        WebhooksApiModule,
        McpApiModule,
      ],
      providers: [WorkspaceResolver],
    };
  }
}
