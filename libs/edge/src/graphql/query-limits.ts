// docs/security.md#graphql-no-caller-can-stall-the-service: no query may cost the service more than a
// bounded amount of work.
// After Apollo's own validation (so fragments are known and acyclic) each operation is checked for
// depth (graphql-depth-limit), aliases, node count and cost (graphql-query-complexity, with the
// variables applied), and every page argument against MAX_PAGE_SIZE, before any resolver runs.
import type { ApolloServerPlugin } from '@apollo/server';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import {
  DocumentNode,
  GraphQLError,
  GraphQLSchema,
  isListType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  validate,
  ValidationRule,
  visit,
} from 'graphql';
import { Refusal, readScope } from '@app/platform';
import { unstorableText } from '../http/posted-input';
import { pageSizeRefusal } from './page-size';

// graphql-depth-limit ships no types; its one export is a rule factory.
const depthLimit: (maxDepth: number) => ValidationRule = require('graphql-depth-limit');

export const QUERY_LIMITS = {
  /** Nested selections below the operation (introspection fields not counted). */
  depth: 10,
  /** Aliased fields in one document. */
  aliases: 30,
  /** Fields as written (fragments counted once), checked before validation. */
  fields: 500,
  /** Fields evaluated, fragments expanded. */
  nodes: 2_000,
  /** Sum over fields of 1 + page size x the cost of what each item selects. */
  cost: 20_000,
  /** Tokens the parser reads before giving up (graphql-js parse option). */
  tokens: 10_000,
} as const;

/** Apollo's parse options: a document over the token budget is refused before it is validated. */
export const GRAPHQL_PARSE_OPTIONS = { maxTokens: QUERY_LIMITS.tokens };

/**
 * What a list field without a page argument is taken to return: such lists are short by rule here
 * (webhook addresses at most 10, the delivery log 20, attempts 6, a person's identities and lists).
 */
export const UNPAGED_LIST_SIZE = 10;

function pageArgument(args: Record<string, any>): { name: string; value: unknown } | null {
  if (args.first !== undefined && args.first !== null) return { name: 'first', value: args.first };
  // A String limit names a rate limit (setWorkspaceLimit), not a page size.
  if (args.limit !== undefined && args.limit !== null && typeof args.limit !== 'string')
    return { name: 'limit', value: args.limit };
  for (const [name, value] of Object.entries(args)) {
    if (value && typeof value === 'object' && value.first !== undefined && value.first !== null)
      return { name: `${name}.first`, value: value.first };
  }
  return null;
}

/** Cost of one field: 1, plus what each item selects times how many items a page may hold. */
export const pagedCost: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (type.name.startsWith('__') || field.name.startsWith('__')) return 1 + childComplexity;
  const page = pageArgument(args);
  if (page) {
    const refusal = pageSizeRefusal(page.value, page.name);
    if (refusal) throw asGraphqlError(refusal);
  }
  // A connection's edges and an edge's node only wrap the item: the item costs what it selects.
  if ((field.name === 'edges' && /Connection$/.test(type.name)) || (field.name === 'node' && /Edge$/.test(type.name)))
    return childComplexity;
  // A list inside a page type (edges of a Connection, messages of a MessagePage) was multiplied by its parent's page
  // size.
  const inPage = /(Connection|Page)$/.test(type.name);
  if (!page && (inPage || !isListType(getNullableType(field.type)))) return 1 + childComplexity;
  const size = page ? Number(page.value) : UNPAGED_LIST_SIZE;
  return 1 + size * Math.max(childComplexity, 1);
};

/**
 * Field nodes as written (fragments counted once), how many carry an alias, and any string literal no door may store.
 */
export function countFields(document: DocumentNode): { aliases: number; fields: number; hostileString: string | null } {
  let aliases = 0;
  let fields = 0;
  let hostileString: string | null = null;
  visit(document, {
    [Kind.FIELD](node) {
      fields++;
      if (node.alias) aliases++;
    },
    [Kind.STRING](node) {
      hostileString ??= unstorableText(node.value);
    },
  });
  return { aliases, fields, hostileString };
}

/** A Refusal as a GraphQL error refusing the request before it runs: its code, and its status as the HTTP answer's. */
export function asGraphqlError(refusal: Refusal): GraphQLError {
  return new GraphQLError(refusal.message, {
    extensions: { code: refusal.code, status: refusal.status, http: { status: refusal.status } },
  });
}

function tooMuchRefusal(sentence: string): Refusal {
  return new Refusal('invalid_field', sentence, { field: 'query' });
}

function tooMuch(sentence: string): GraphQLError {
  return asGraphqlError(tooMuchRefusal(sentence));
}

/** The checks as a function, so they can be tested without a server; null when the operation may run. */
/**
 * Checked before Apollo sees the document: validation itself is quadratic in repeated fields
 * (OverlappingFieldsCanBeMerged compares every pair), so it must not see many. Null when the source
 * does not parse: Apollo then answers the syntax error itself.
 */
export function documentSizeRefusal(source: unknown): Refusal | null {
  if (typeof source !== 'string') return null;
  let document: DocumentNode;
  try {
    document = parse(source, GRAPHQL_PARSE_OPTIONS);
  } catch {
    return null;
  }
  const { aliases, fields, hostileString } = countFields(document);
  if (hostileString) {
    return new Refusal(
      'invalid_field',
      `A string in the query contains ${hostileString}, which cannot be stored: remove it and send it again.`,
      { field: 'query' },
    );
  }
  if (aliases > QUERY_LIMITS.aliases)
    return tooMuchRefusal(
      `The query has ${aliases} aliases; at most ${QUERY_LIMITS.aliases} are allowed: split it into several requests.`,
    );
  if (fields > QUERY_LIMITS.fields)
    return tooMuchRefusal(
      `The query selects ${fields} fields; at most ${QUERY_LIMITS.fields} are allowed: split it into several requests.`,
    );
  return null;
}

/** Checked once the document is valid (fragments known and acyclic) and the operation chosen. */
export function queryLimitsError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> = {},
): GraphQLError | null {
  if (validate(schema, document, [depthLimit(QUERY_LIMITS.depth)]).length > 0) {
    return tooMuch(
      `The query nests deeper than ${QUERY_LIMITS.depth} levels: select less deeply and read the rest by id.`,
    );
  }
  // Variables that do not fit their types stop the operation before it runs, with graphql-js's own sentence
  // (Apollo's execution says it); graphql-query-complexity would throw that error too, mistaken for its node limit.
  const operation = getOperationAST(document, operationName);
  if (operation && getVariableValues(schema, operation.variableDefinitions ?? [], variables).errors) return null;
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      operationName,
      variables,
      estimators: [pagedCost],
      maxQueryNodes: QUERY_LIMITS.nodes,
    });
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions?.code) return error;
    return tooMuch(`The query selects more than ${QUERY_LIMITS.nodes} fields: split it into several requests.`);
  }
  if (cost > QUERY_LIMITS.cost) {
    return tooMuch(
      `The query could read about ${cost} items, over the limit of ${QUERY_LIMITS.cost}: ask for smaller pages ` +
        `(first) or fewer nested lists.`,
    );
  }
  return null;
}

/**
 * Apollo plugin: queryLimitsError once the operation is validated and chosen (documentSizeRefusal
 * runs before Apollo, see body-parsers), and a read's statements bounded by `statementTimeoutMs`.
 */
export function queryLimitsPlugin(statementTimeoutMs: number): ApolloServerPlugin {
  let schema: GraphQLSchema;
  return {
    async serverWillStart(service) {
      schema = service.schema;
    },
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operationName, request, operation }) {
          const error = queryLimitsError(schema, document, operationName ?? undefined, request.variables ?? {});
          if (error) throw error;
          const scope = readScope.getStore();
          // a query writes nothing, so the read replica may serve it (docs/decisions.md#read-replica); a mutation
          // reads the primary
          if (scope && operation?.operation === 'query')
            Object.assign(scope, { timeoutMs: statementTimeoutMs, replica: true });
        },
      };
    },
  };
}
