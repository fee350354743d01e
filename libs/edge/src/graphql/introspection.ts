// Introspection in production (docs/graphql.md#the-schema): a document that asks for __schema or __type runs
// only for a caller the admin API lets in (a member, by key or session, or the operator); anyone else is
// refused before it runs, with a sentence naming the SDL's address, which answers everybody.
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLSchema, NoSchemaIntrospectionCustomRule, validate } from 'graphql';
import { isRefusal, Refusal } from '@app/platform';
import { asGraphqlError } from './query-limits';

/** Where the api serves its GraphQL schema as SDL, to anybody. */
export const SCHEMA_SDL_PATH = '/api/schema.graphql';

/** What lets a request in, or throws the Refusal saying why not (GraphqlAuthGuard.admit). */
type AdmitCaller = (request: unknown) => Promise<void>;

/** Whether the document reads the schema (graphql-js's own rule, as Apollo's introspection switch uses it). */
function introspects(schema: GraphQLSchema, document: Parameters<typeof validate>[1]): boolean {
  return validate(schema, document, [NoSchemaIntrospectionCustomRule]).length > 0;
}

/** The refusal an introspection gets from a caller not let in: the same code, the way in, and the SDL. */
function introspectionRefusal(refusal: Refusal, sdlUrl: string): Refusal {
  if (refusal.code === 'rate_limited') return refusal;
  return new Refusal(
    refusal.code,
    `Introspection (__schema, __type) answers workspace members only: ${refusal.message} ` +
      `The schema is also served as SDL to anybody at ${sdlUrl}.`,
    refusal.extra,
  );
}

/** Apollo plugin: once the operation is resolved, an introspecting document needs a caller let in. */
export function introspectionPlugin(admit: AdmitCaller, sdlUrl: string): ApolloServerPlugin<{ req: unknown }> {
  let schema: GraphQLSchema;
  return {
    async serverWillStart(service) {
      schema = service.schema;
    },
    async requestDidStart() {
      return {
        async didResolveOperation({ document, contextValue }) {
          if (!introspects(schema, document)) return;
          try {
            await admit(contextValue.req);
          } catch (error) {
            if (!isRefusal(error)) throw error;
            throw asGraphqlError(introspectionRefusal(error, sdlUrl));
          }
        },
      };
    },
  };
}
