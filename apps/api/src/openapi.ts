// Issue 16 item 9: GET /api/openapi.json, an OpenAPI 3.1 document of every REST route. The routes come
// from @nestjs/swagger reading the controllers (so none is missing or invented; a test checks them
// against the router); the bodies and answers are JSON Schemas the TypeScript compiler read from the
// types the code uses (scripts/wire-schemas.ts, written by `npm run schema` to openapi.schemas.json),
// and the tool door's JSON-RPC message from the MCP SDK's own schema. GraphQL has its schema at /graphql.
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AppConfig } from '@app/platform';
import SCHEMAS from './openapi.schemas.json';

export const OPENAPI_PATH = '/api/openapi.json';

type SchemaName = keyof typeof SCHEMAS | 'JsonRpcMessage';
type Schema = Record<string, unknown>;

const ref = (name: SchemaName): Schema => ({ $ref: `#/components/schemas/${name}` });
const anyOf = (...names: SchemaName[]): Schema => ({ anyOf: names.map(ref) });
const json = (schema: Schema, description: string) => ({ description, content: { 'application/json': { schema } } });
/** A third party's own payload: verified by its signature, then read by the door's provider file. */
const theirs = (who: string): Schema => ({ type: 'object', additionalProperties: {}, description: `The webhook payload exactly as ${who} sends it, signed.` });

interface Documented {
  body?: Schema;
  answers: Record<string, [Schema, string]>;
}

const DOOR: Documented['answers'] = { 200: [ref('DoorAnswer'), 'Recorded, or ignored (an event this door does not map).'] };

/** What each route takes and answers, by the schema names above; every refusal is the Refusal answer. */
const ROUTES: Record<string, Documented> = {
  'POST /api/v1/events': {
    body: anyOf('WireItem', 'WireBatch'),
    answers: { 200: [anyOf('ActionSuccess', 'BatchSuccess'), 'One item, or a batch whose items were all ok.'], 207: [ref('BatchRefusal'), 'partial_failure: some items of the batch were refused; results has every item.'] },
  },
  'POST /api/in/{publicKey}/{action}': { body: ref('WirePublicPost'), answers: { 200: [ref('ActionSuccess'), 'ok and status only: the public doors never tell ids.'] } },
  'POST /api/v1/messages': { body: ref('WireSendMessage'), answers: { 200: [ref('SendSuccess'), 'Sent (or recorded, without a provider key).'] } },
  'GET /api/v1/messages': { answers: { 200: [ref('MessagePage'), 'Newest first.'] } },
  'GET /api/v1/people/{who}/messages': { answers: { 200: [ref('MessageThread'), 'Oldest first.'] } },
  'POST /api/mcp': { body: ref('JsonRpcMessage'), answers: { 200: [ref('JsonRpcMessage'), 'The JSON-RPC answer (MCP streamable HTTP, JSON responses).'] } },
  'POST /api/webhooks/automation/{address}': { body: ref('WireAutomationStart'), answers: { 200: [ref('StartAnswer'), 'Started, or paused (a paused or draft automation is no error).'] } },
  'POST /api/webhooks/email': { body: theirs('the email provider'), answers: { 200: [ref('EmailDoorAnswer'), 'What the door did with the event.'] } },
  'POST /api/webhooks/payment/{token}': { body: theirs('the payment provider'), answers: DOOR },
  'POST /api/webhooks/auth_a/{token}': { body: theirs('the auth provider'), answers: DOOR },
  'POST /api/webhooks/auth_b/{token}': { body: theirs('the auth provider'), answers: DOOR },
  'POST /api/webhooks/hosting/{token}': { body: theirs('the hosting provider'), answers: DOOR },
};

type Operation = { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown; responses?: Record<string, unknown> };

export function openApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle('Lifeline')
    .setDescription(
      'Customer events, messaging and webhooks. Key-authenticated routes take `Authorization: Bearer sk_live_…`; every refusal is `{ok:false, error, message}`.',
    )
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    .addServer(config.baseUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A secret key (sk_live_…), or ADMIN_TOKEN where the operator is meant.' })
    .build();
  const document = SwaggerModule.createDocument(app, base);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations) as Array<[string, Operation]>) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      nameEveryPathParameter(path, operation);
      // Every answer under /api/ that is not a success goes through the one exceptions filter.
      if (path.startsWith('/api/')) Object.assign((operation.responses ??= {}), { '4XX': REFUSAL, '5XX': REFUSAL });
      describe(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  for (const route of Object.keys(ROUTES)) {
    const [method, path] = route.split(' ');
    if (!(document.paths[path] as Record<string, unknown> | undefined)?.[method.toLowerCase()]) {
      throw new Error(`openapi.ts describes ${route}, which the app does not serve: remove it from ROUTES.`);
    }
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...(SCHEMAS as Record<string, Schema>), JsonRpcMessage: jsonRpcMessage() },
    responses: { ...document.components?.responses, Refusal: json(ref('WireRefusal'), 'Refused: error is the code (its HTTP status is fixed per code), message a sentence naming the fix.') },
  };
  // Nothing generated here uses 3.0-only keywords (nullable, exclusive bounds as booleans), so the
  // document is valid 3.1 as it stands.
  return { ...document, openapi: '3.1.0' };
}

const REFUSAL = { $ref: '#/components/responses/Refusal' };

/** A parameter read by a guard rather than @Param() is still in the path: name every one of them. */
function nameEveryPathParameter(path: string, operation: Operation): void {
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (!(operation.parameters ?? []).some((p) => p.in === 'path' && p.name === name)) {
      (operation.parameters ??= []).push({ name, in: 'path', required: true, schema: { type: 'string' } } as never);
    }
  }
}

function describe(route: string, operation: Operation): void {
  const documented = ROUTES[route];
  if (!documented) return;
  if (documented.body) operation.requestBody = { required: true, content: { 'application/json': { schema: documented.body } } };
  for (const [status, [schema, description]] of Object.entries(documented.answers)) {
    (operation.responses ??= {})[status] = json(schema, description);
  }
}

/** The MCP SDK's own schema of a JSON-RPC message, as JSON Schema (zod 4 writes 2020-12, as 3.1 reads). */
function jsonRpcMessage(): Schema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(JSONRPCMessageSchema, { unrepresentable: 'any' }) as Schema;
  return { description: 'A JSON-RPC 2.0 message of MCP: initialize, tools/list, tools/call and the like.', ...schema };
}

/** Serves the document; built once, at start. */
export function installOpenApi(app: INestApplication, config: AppConfig): void {
  const document = openApiDocument(app, config);
  app.getHttpAdapter().get(OPENAPI_PATH, (_req: unknown, res: { json(body: unknown): void }) => res.json(document));
}
