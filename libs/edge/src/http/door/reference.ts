// How a route reads in the OpenAPI document (GET /api/openapi.json, apps/api/src/openapi.ts).
// Written beside the route, so its summary, its caller and every refusal it can give are read where the
// route is: a new refusal in a route's code is one line away from the list a client is told about. A
// door's route (DoorRoute) adds what its declaration already says (a rate limit answers rate_limited, a
// body limit too_large). It is plain data on the handler: the api renders it (tags, security schemes,
// each refusal as an answer of its status with an example), so the worker, which loads these
// controllers' files too, never loads @nestjs/swagger.
import { applyDecorators, HttpCode, Post, SetMetadata } from '@nestjs/common';
import type { RefusalCode } from '@app/wire';
import { tooLargeRefusal } from '../body-parsers';
import { ISO_8601 } from '../posted-input';
import type { DoorDeclaration } from './door';

/** The document's tags, one per context a client meets; each is described in apps/api/src/openapi. */
export type ReferenceTag =
  | 'events'
  | 'people'
  | 'segment'
  | 'website'
  | 'messages'
  | 'automations'
  | 'doors'
  | 'tool-door'
  | 'health'
  | 'metrics';

/** Who may call a route (docs/rest.md), as the document's security requirements name them. */
export type Caller = 'secret key' | 'secret key or connector' | 'write key' | 'operator' | 'anyone';

type Schema = Record<string, unknown>;

/** A schema by its name among the document's components (openapi.schemas.json), or one written out. */
export type SchemaLike = string | Schema;

export interface ReferenceAnswer {
  description: string;
  /** The answer's body; none for an answer without one (204, 304). */
  schema?: SchemaLike;
  /** application/json unless said. */
  mediaType?: string;
  example?: unknown;
}

export interface RouteReference {
  /** Unique and camelCase: a generated client names its method after it, so it never changes. */
  operationId: string;
  summary: string;
  description: string;
  tag: ReferenceTag;
  caller: Caller;
  /** What each path parameter is, by its name in the route (a parameter not named here is a string). */
  params?: Record<string, { description: string; schema?: Schema }>;
  /** The component whose properties are the query parameters. */
  query?: string;
  body?: {
    schema: SchemaLike;
    mediaType?: string;
    description?: string;
    example?: unknown;
    /**
     * The body is read as JSON whatever its Content-Type says (a JSON door's reader, body-parsers.ts): the
     * document lists text/plain and form-encoded beside application/json, as JSON text.
     */
    jsonWhateverType?: boolean;
  };
  /** Each answer that is not a refusal, by status. */
  answers: Record<number, ReferenceAnswer>;
  /** Every refusal code the route can give, beyond those of every request (the document adds those). */
  refuses: RefusalCode[];
  /** The route's own sentence of a code, where the document's usual example would mislead. */
  examples?: Partial<Record<RefusalCode, string>>;
}

/** Where a handler keeps its reference, for the document to read. */
export const ROUTE_REFERENCE = 'lifeline:route-reference';

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * An instant as every route reads one (posted-input.ts: parseInstant, ISO_8601 once trimmed). Not format
 * date-time: RFC 3339 needs an offset, and the routes take a date alone or a time without one.
 */
export const INSTANT_SCHEMA: Schema = {
  type: 'string',
  pattern: `^\\s*${ISO_8601.source.slice(1, -1)}\\s*$`,
  description:
    'ISO 8601: a date (midnight UTC) or a date and time, with an offset (Z, ±hh:mm or ±hhmm) or none (read as UTC).',
};

/** The route's operation in the OpenAPI document. */
export const Reference = (reference: RouteReference): MethodDecorator => SetMetadata(ROUTE_REFERENCE, reference);

/**
 * The Nest route of a door: its method, path and status, for the router, and its reference in the
 * OpenAPI document, with the refusals the declaration already implies and its own too_large sentence.
 */
export const DoorRoute = (
  declaration: Pick<
    DoorDeclaration,
    'method' | 'path' | 'status' | 'bodyLimit' | 'body' | 'rateLimit' | 'writesOwnAnswer'
  >,
  reference: RouteReference,
) =>
  applyDecorators(
    Post(declaration.path),
    HttpCode(declaration.status),
    Reference({
      ...reference,
      // A JSON door reads any Content-Type as JSON; one that answers itself (the tool door's MCP transport) does not.
      body:
        reference.body && declaration.body !== 'raw' && !declaration.writesOwnAnswer
          ? { jsonWhateverType: true, ...reference.body }
          : reference.body,
      refuses: [...refusalsOf(declaration), ...reference.refuses],
      examples: { too_large: tooLargeRefusal(declaration.bodyLimit).message, ...reference.examples },
    }),
  );

/** Every door reads its body at its limit and checks it for hostile input (body-parsers.ts); a JSON door parses it. */
function refusalsOf(declaration: Pick<DoorDeclaration, 'body' | 'rateLimit'>): RefusalCode[] {
  return [
    'too_large',
    'invalid_field',
    ...(declaration.body === 'raw' ? [] : ['invalid_json' as const]),
    ...(declaration.rateLimit ? ['rate_limited' as const] : []),
  ];
}
