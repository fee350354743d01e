import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AutomationsApiModule } from '@app/automations';
import { AppConfig, CoreModule, formatGraphqlError, GRAPHQL_PARSE_OPTIONS, isRefusal, loggerModule, MembersResolver, queryLimitsPlugin, WorkspaceResolver } from '@app/core';
import { EventsApiModule } from '@app/events';
import { McpApiModule } from '@app/mcp';
import { MessagingApiModule } from '@app/messaging';
import { WebhooksApiModule } from '@app/webhooks';
import { DoorsApiModule } from '@app/doors';

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
          formatError: (formatted, error) => {
            // Field resolvers run without the exception filter: a Refusal thrown there is read here.
            const refusal = unwrapResolverError(error);
            return formatGraphqlError(isRefusal(refusal) ? { ...formatted, message: refusal.message, extensions: { code: refusal.code } } : formatted);
          },
        }),
        EventsApiModule,
        MessagingApiModule,
        WebhooksApiModule,
        AutomationsApiModule,
        McpApiModule,
        DoorsApiModule,
      ],
      providers: [WorkspaceResolver, MembersResolver],
    };
  }
}
