// A route's reference (libs/edge/src/http/door/reference.ts) as an OpenAPI operation: its
// callers as security requirements, its parameters, body and answers, and its refusals by status.
import type { OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger';
import { type Caller, type ReferenceAnswer, type RouteReference, type SchemaLike, schemaRef } from '@app/edge';
import { refusalAnswers, sharedRefusalAnswers } from './refusals';

type Schema = Record<string, unknown>;

const REQUIREMENTS: Record<Caller, Array<Record<string, string[]>>> = {
  'secret key': [{ secretKey: [] }],
  'secret key or connector': [{ secretKey: [] }, { connector: [] }],
  // Segment's clients send the write key (secret or public) as HTTP Basic's user name, or as writeKey in the body,
  // which no security scheme can name (an apiKey is a header, a query parameter or a cookie): {} says a request
  // may carry no header, and the body's writeKey says why
  // (docs/decisions.md#the-openapi-document-is-true-to-the-service).
  'write key': [{ writeKey: [] }, {}],
  // {} too: without ADMIN_TOKEN, a caller on the service's own machine needs no header.
  operator: [{ adminToken: [] }, {}],
  // Said, not left out: a route that takes no credential says so (the public key is in the path, a door's proof is its
  // signature).
  anyone: [],
};

const schemaOf = (schema: SchemaLike): Schema => (typeof schema === 'string' ? schemaRef(schema) : schema);

function content(schema: SchemaLike, mediaType = 'application/json', example?: unknown) {
  return { [mediaType]: { schema: schemaOf(schema), ...(example === undefined ? {} : { example }) } };
}

/**
 * The types a JSON door's body may come as besides application/json, each read as JSON all the same: text/plain
 * (sendBeacon's string, Segment's browser library, which posts so as to need no CORS preflight) and form-encoded
 * (a form's or a beacon's simple request).
 */
const JSON_AS_TEXT = ['text/plain', 'application/x-www-form-urlencoded'];

function bodyContent(body: NonNullable<RouteReference['body']>) {
  const json = content(body.schema, body.mediaType, body.example);
  if (!body.jsonWhateverType) return json;
  const text = {
    schema: { type: 'string', contentMediaType: 'application/json', contentSchema: schemaOf(body.schema) },
    ...(body.example === undefined ? {} : { example: JSON.stringify(body.example) }),
  };
  return { ...json, ...Object.fromEntries(JSON_AS_TEXT.map((type) => [type, text])) };
}

/** The operation of the route at `path`; `schemas` are the document's, for the query's parameters. */
export function operationOf(reference: RouteReference, path: string, schemas: Record<string, Schema>): OperationObject {
  const { operationId, summary, description, tag, caller, body } = reference;
  return {
    operationId,
    summary,
    description,
    tags: [tag],
    security: REQUIREMENTS[caller],
    parameters: [...pathParameters(reference, path), ...queryParameters(reference, schemas)],
    ...(body
      ? {
          requestBody: {
            required: true,
            ...(body.description ? { description: body.description } : {}),
            content: bodyContent(body),
          },
        }
      : {}),
    responses: answers(reference),
  };
}

/** Every parameter in the path, as the reference describes it (a string unless it says). */
function pathParameters(reference: RouteReference, path: string): ParameterObject[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const described = reference.params?.[name];
    return {
      name,
      in: 'path',
      required: true,
      ...(described ? { description: described.description } : {}),
      schema: described?.schema ?? { type: 'string' },
    };
  });
}

/** A route's query is a wire type: each of its properties is a query parameter, as the route reads it. */
function queryParameters(reference: RouteReference, schemas: Record<string, Schema>): ParameterObject[] {
  if (!reference.query) return [];
  const query = schemas[reference.query] as { properties?: Record<string, Schema>; required?: string[] } | undefined;
  if (!query?.properties)
    throw new Error(
      `openapi: the query of ${reference.operationId}, ${reference.query}, is no object schema of ` +
        `openapi.schemas.json.`,
    );
  return Object.entries(query.properties).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    required: query.required?.includes(name) ?? false,
    ...(description ? { description: String(description) } : {}),
    schema,
  }));
}

/**
 * The route's own answers and its refusals; where both answer one status (the tool door's 400), either body may come.
 */
function answers(reference: RouteReference): Record<string, ResponseObject | { $ref: string }> {
  const responses: Record<string, ResponseObject | { $ref: string }> = Object.fromEntries(
    Object.entries(reference.answers).map(([status, answer]) => [status, answerOf(answer)]),
  );
  for (const [status, refusal] of Object.entries(
    refusalAnswers({ codes: reference.refuses, examples: reference.examples }),
  )) {
    const own = responses[status] as ResponseObject | undefined;
    // a shared refusal (every request's 503 unavailable) meets the route's own answer of that status (health's 503)
    const written =
      '$ref' in refusal ? sharedRefusalAnswers()[refusal.$ref.split('/').pop()!] : (refusal as ResponseObject);
    responses[status] = own ? either(own, written) : refusal;
  }
  const unauthorized = responses[401] as ResponseObject | undefined;
  if (reference.caller === 'secret key or connector' && unauthorized)
    responses[401] = { ...unauthorized, headers: { ...unauthorized.headers, 'WWW-Authenticate': SIGN_IN_HERE } };
  return responses;
}

/** A route a connector may call says where to sign in when its key or token is refused (RFC 9728, RFC 6750). */
const SIGN_IN_HERE = {
  description:
    'Bearer, with resource_metadata naming /.well-known/oauth-protected-resource, where a connector learns how to ' +
    'sign in (and error="invalid_token" for a token that ran out or was revoked).',
  required: true,
  schema: { type: 'string', pattern: '^Bearer .*resource_metadata="' },
};

function answerOf(answer: ReferenceAnswer): ResponseObject {
  return {
    description: answer.description,
    ...(answer.schema ? { content: content(answer.schema, answer.mediaType, answer.example) } : {}),
  };
}

function either(own: ResponseObject, refusal: ResponseObject): ResponseObject {
  const [mine, theirs] = [own.content?.['application/json'], refusal.content?.['application/json']];
  if (!mine || !theirs) throw new Error('openapi: a route answers JSON where it can be refused: both are JSON.');
  const example: Record<string, { summary: string; value: unknown }> =
    mine.example === undefined ? {} : { answer: { summary: 'answer', value: mine.example } };
  // A header either answer carries is documented; it is required only when both always carry it.
  const headers: Record<string, unknown> = {};
  for (const [name, header] of Object.entries({ ...own.headers, ...refusal.headers }) as Array<[string, Schema]>) {
    const always = [own, refusal].every((answer) => (answer.headers?.[name] as Schema | undefined)?.required);
    headers[name] = { ...header, required: always };
  }
  return {
    description: `${own.description} ${refusal.description}`,
    ...(Object.keys(headers).length ? { headers: headers as ResponseObject['headers'] } : {}),
    content: {
      'application/json': {
        schema: { anyOf: [mine.schema!, theirs.schema!] },
        examples: { ...example, ...theirs.examples },
      },
    },
  };
}
