import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AccessApiModule } from '@app/access';
import { AutomationsApiModule } from '@app/automations';
import { AppConfig, isRefusal, loggerModule, PlatformModule } from '@app/platform';
import {
  EdgeModule,
  formatGraphqlError,
  GRAPHQL_PARSE_OPTIONS,
  HotDoorsModule,
  introspectionPlugin,
  ObservabilityModule,
  queryLimitsPlugin,
  SCHEMA_SDL_PATH,
} from '@app/edge';
import { OutboxModule } from '@app/outbox';
import { MIGRATIONS } from '@app/schema';
import {
  ConnectedAppsResolver,
  GraphqlAuthGuard,
  MembersResolver,
  ViewerResolver,
  WorkspaceLimitsResolver,
  WorkspaceResolver,
  WorkspacesModule,
} from '@app/workspaces';
import { EventsApiModule } from '@app/events';
import { McpApiModule } from '@app/mcp';
import { MessagingApiModule } from '@app/messaging';
import { WebhooksApiModule } from '@app/webhooks';
import { IntegrationsApiModule } from '@app/integrations';
import { ExplorerAssetsController, explorerLandingPage } from './explorer/explorer';

/** The admin API: Apollo with the query limits, and in production introspection for callers let in only. */
function graphqlModule(config: AppConfig): DynamicModule {
  const development = config.nodeEnv !== 'production';
  return GraphQLModule.forRootAsync<ApolloDriverConfig>({
    driver: ApolloDriver,
    imports: [WorkspacesModule],
    inject: [GraphqlAuthGuard],
    useFactory: (guard: GraphqlAuthGuard) => ({
      path: '/graphql',
      autoSchemaFile: true,
      sortSchema: true,
      playground: false,
      // In production only a member or the operator introspects (docs/graphql.md#the-schema).
      introspection: true,
      // The explorer is served by the api itself (offline); production shows none (no CDN page either).
      plugins: [
        queryLimitsPlugin(config.graphqlStatementTimeoutMs),
        ...(development
          ? [explorerLandingPage('/graphql')]
          : [
              ApolloServerPluginLandingPageDisabled(),
              introspectionPlugin(
                (req) => guard.admit(req as Parameters<GraphqlAuthGuard['admit']>[0]),
                config.baseUrl + SCHEMA_SDL_PATH,
              ),
            ]),
      ],
      parseOptions: GRAPHQL_PARSE_OPTIONS,
      context: ({ req }: { req: unknown }) => ({ req }),
      formatError: (formatted, error) => {
        // Field resolvers run without the exception filter: a Refusal thrown there is read here.
        const refusal = unwrapResolverError(error);
        return formatGraphqlError(
          isRefusal(refusal)
            ? { ...formatted, message: refusal.message, extensions: { code: refusal.code } }
            : formatted,
        );
      },
    }),
  });
}

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    const development = config.nodeEnv !== 'production';
    return {
      module: ApiModule,
      imports: [
        loggerModule(config, 'api'),
        PlatformModule.forRoot(config, MIGRATIONS),
        OutboxModule,
        WorkspacesModule,
        EdgeModule,
        graphqlModule(config),
        ObservabilityModule,
        HotDoorsModule,
        EventsApiModule,
        MessagingApiModule,
        WebhooksApiModule,
        AutomationsApiModule,
        McpApiModule,
        IntegrationsApiModule,
        AccessApiModule,
      ],
      controllers: development ? [ExplorerAssetsController] : [],
      providers: [WorkspaceResolver, MembersResolver, ConnectedAppsResolver, ViewerResolver, WorkspaceLimitsResolver],
    };
  }
}
