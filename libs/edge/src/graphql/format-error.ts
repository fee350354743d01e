// GraphQL refusals keep the REST code and sentence (docs/rest.md#answers-and-refusals): the code
// in extensions.code, its HTTP status in extensions.status; the answer itself stays HTTP 200.
import type { GraphQLFormattedError } from 'graphql';
import { REFUSAL_STATUS, RefusalCode } from '@app/wire';

const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';
// Apollo's own codes for a query that does not parse, names what the schema lacks, or has bad variables.
const MALFORMED = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

export function formatGraphqlError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const code = String(formatted.extensions?.code ?? '');
  const base = {
    message: formatted.message,
    ...(formatted.path ? { path: formatted.path } : {}),
    ...(formatted.locations ? { locations: formatted.locations } : {}),
  };
  if (code in REFUSAL_STATUS) return { ...base, extensions: { code, status: REFUSAL_STATUS[code as RefusalCode] } };
  if (MALFORMED.has(code)) return { ...base, extensions: { code: 'invalid_field', status: 400 } };
  return {
    message: SERVER_ERROR,
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: 'server_error', status: 500 },
  };
}
