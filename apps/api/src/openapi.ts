// GET /api/openapi.json, an OpenAPI 3.1 document of every REST route, which
// Redocly's recommended rules pass (test/openapi-lint.e2e-spec.ts). @nestjs/swagger reads the routes
// from the controllers (so none is missing or invented; a test checks them against the router); each is
// then written from its reference, kept beside its handler (libs/edge/src/http/door/reference.ts; the
// health routes' in openapi/health.ts): summary, callers, answers, and the refusals it can give, which
// openapi/refusals.ts turns into answers by status. The bodies and answers are JSON Schemas the
// TypeScript compiler read from the types the code uses (scripts/wire-schemas.ts, written by `npm run
// schema` to openapi.schemas.json) with what types cannot say of posted items (openapi/posted.ts: closed items,
// null for an optional field, the limits), and the tool door's from the MCP SDK's own. GraphQL has /graphql.
import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ROUTE_REFERENCE, RouteReference } from '@app/edge';
import type { AppConfig } from '@app/platform';
import { DESCRIPTION, securitySchemes, TAGS } from './openapi/front-matter';
import { HEALTH_ROUTES } from './openapi/health';
import { operationOf } from './openapi/operation';
import { withPostedRules } from './openapi/posted';
import { sharedRefusalAnswers } from './openapi/refusals';
import SCHEMAS from './openapi.schemas.json';

export const OPENAPI_PATH = '/api/openapi.json';

type Schema = Record<string, unknown>;

function openApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Lifeline')
    .setDescription(DESCRIPTION)
    .setVersion(process.env.npm_package_version ?? '0.1.0')
    .addServer(config.baseUrl);
  for (const [name, description] of Object.entries(TAGS)) builder.addTag(name, description);
  for (const [name, scheme] of Object.entries(securitySchemes(config))) builder.addSecurity(name, scheme);
  // Each operation is named by its handler here, and renamed from its reference below.
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (controller, method) => `${controller}.${method}`,
  });
  const schemas: Record<string, Schema> = {
    ...withPostedRules(SCHEMAS as Record<string, Schema>),
    JsonRpcMessage: fromZod(
      JSONRPCMessageSchema,
      'A JSON-RPC 2.0 message of MCP: initialize, tools/list, tools/call and the like.',
    ),
    ProtectedResourceMetadata: fromZod(
      OAuthProtectedResourceMetadataSchema,
      'RFC 9728 protected resource metadata: where a connector signs in to call the tool door.',
    ),
  };
  const references = handlerReferences(app);
  for (const [path, operations] of Object.entries(document.paths) as Array<
    [string, Record<string, { operationId: string }>]
  >) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path}`;
      const reference = references.get(operation.operationId) ?? HEALTH_ROUTES[route];
      if (!reference)
        throw new Error(
          `openapi: ${route} (${operation.operationId}) has no reference: describe it with @Reference or @DoorRoute.`,
        );
      operations[method] = operationOf(reference, path, schemas) as never;
    }
  }
  const responses = sharedRefusalAnswers();
  document.components = {
    ...document.components,
    schemas: used(schemas, { paths: document.paths, responses }),
    responses,
  };
  // Nothing generated here uses 3.0-only keywords (nullable, exclusive bounds as booleans), so the
  // document is valid 3.1 as it stands.
  return { ...document, openapi: '3.1.0' };
}

/** Each controller method's reference, by the name createDocument gave its operation: Controller.method. */
function handlerReferences(app: INestApplication): Map<string, RouteReference> {
  const found = new Map<string, RouteReference>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const prototype = (metatype as Type | null)?.prototype;
      for (const method of prototype ? Object.getOwnPropertyNames(prototype) : []) {
        const reference =
          typeof prototype[method] === 'function' ? Reflect.getMetadata(ROUTE_REFERENCE, prototype[method]) : undefined;
        if (reference) found.set(`${(metatype as Type).name}.${method}`, reference);
      }
    }
  }
  return found;
}

/** Only the schemas the document uses, and those they use in turn: the wire's other types stay out. */
function used(schemas: Record<string, Schema>, roots: unknown): Record<string, Schema> {
  const kept = new Set<string>();
  const visit = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      if (kept.has(name)) continue;
      if (!schemas[name])
        throw new Error(`openapi: a route names the schema ${name}, which is not in openapi.schemas.json.`);
      kept.add(name);
      visit(schemas[name]);
    }
  };
  visit(roots);
  return Object.fromEntries(
    Object.keys(schemas)
      .filter((name) => kept.has(name))
      .sort()
      .map((name) => [name, schemas[name]]),
  );
}

/** The MCP SDK's own schema, as JSON Schema (zod 4 writes 2020-12, as 3.1 reads). */
function fromZod(schema: z.ZodType, description: string): Schema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Schema;
  return { description, ...json };
}

/** Serves the document; built once, at start. */
export function installOpenApi(app: INestApplication, config: AppConfig): void {
  const document = openApiDocument(app, config);
  app.getHttpAdapter().get(OPENAPI_PATH, (_req: unknown, res: { json(body: unknown): void }) => res.json(document));
}
