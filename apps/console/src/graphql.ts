// Typed GraphQL documents (gql.tada): every document is checked against schema.graphql at build
// (`gql-tada check` in scripts/build-console.js) and its result typed from graphql-env.d.ts, which
// the build generates from schema.graphql.
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: unknown };
}>();

export type { FragmentOf, ResultOf } from 'gql.tada';
export { readFragment } from 'gql.tada';
