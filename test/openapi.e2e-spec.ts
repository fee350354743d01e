// Issue 16 item 9: GET /api/openapi.json describes exactly the REST routes the app serves.
import { readFileSync } from 'node:fs';
import { PARTIAL_FAILURE, REFUSAL_STATUS } from '@app/wire';
import { SCHEMAS_FILE, wireSchemasText } from '../scripts/wire-schemas';
import { useApp } from './harness';

const t = useApp();

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** Every METHOD /path the Express router answers, with :param written {param} as OpenAPI does. */
function servedRoutes(): string[] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  const routes = new Set<string>();
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    for (const path of [layer.route.path].flat()) {
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') routes.add(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}

it('is OpenAPI 3.1 with every served route and nothing else', async () => {
  const answer = await t.request('GET', '/api/openapi.json');
  expect(answer.status).toBe(200);
  const doc = answer.body;
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.title).toBe('Lifeline');
  expect(doc.servers).toEqual([{ url: t.url }]);
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
  // Nest's catch-all answers not_found for every other address; it is no route of ours.
  // The sign-in pages (libs/access) are HTML for browsers, not REST: they are left out of the document.
  const page = (r: string) => / \/(sign-in|sign-out|consent)(\/|$)/.test(r);
  const served = servedRoutes().filter((r) => r !== 'GET /api/openapi.json' && !r.endsWith(' /{*path}') && !page(r));
  expect(served.length).toBeGreaterThan(10);
  expect(served).toContain('POST /api/v1/events');
  expect(served).toContain('POST /api/in/{publicKey}/{action}');
  expect(documented).toEqual(served);
});

it('names each path parameter', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>)) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const op of Object.values(ops)) {
      expect((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort()).toEqual(names);
    }
  }
});

type Operation = { requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> }; responses?: Record<string, unknown> };

function operations(doc: { paths: Record<string, Record<string, Operation>> }): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]));
}

it('documents a JSON request body for every POST, PUT and PATCH route', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const writes = operations(doc).filter(([route]) => /^(POST|PUT|PATCH) /.test(route));
  expect(writes.length).toBeGreaterThan(5);
  for (const [route, op] of writes) {
    expect({ route, required: op.requestBody?.required }).toEqual({ route, required: true });
    const schema = op.requestBody?.content?.['application/json']?.schema ?? {};
    expect({ route, described: Object.keys(schema).length > 0 }).toEqual({ route, described: true });
  }
  // The events endpoint takes one item or a batch, each named by its wire type.
  expect(doc.paths['/api/v1/events'].post.requestBody.content['application/json'].schema).toEqual({
    anyOf: [{ $ref: '#/components/schemas/WireItem' }, { $ref: '#/components/schemas/WireBatch' }],
  });
});

it('answers every refusal under /api/ with the refusal schema, whose codes are the code union', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  for (const [route, op] of operations(doc).filter(([route]) => route.includes(' /api/'))) {
    expect({ route, refusal: op.responses?.['4XX'] }).toEqual({ route, refusal: { $ref: '#/components/responses/Refusal' } });
  }
  const refusal = doc.components.responses.Refusal.content['application/json'].schema;
  const envelope = doc.components.schemas[refusal.$ref.split('/').pop()];
  expect(envelope.required).toEqual(['ok', 'error', 'message']);
  expect(envelope.properties.ok).toEqual({ type: 'boolean', const: false });
  const codes = doc.components.schemas[envelope.properties.error.$ref.split('/').pop()];
  expect([...codes.enum].sort()).toEqual([...Object.keys(REFUSAL_STATUS), PARTIAL_FAILURE].sort());
});

it('every $ref names a component, and an answer really served has the documented shape', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g)];
  expect(refs.length).toBeGreaterThan(20);
  for (const [, kind, name] of refs) expect({ kind, name, found: !!doc.components[kind]?.[name] }).toEqual({ kind, name, found: true });

  const { secretKey } = await t.workspace();
  const answer = await t.request('POST', '/api/v1/events', { key: secretKey, body: { type: 'signup', email: 'ada@example.com' } });
  const success = doc.components.schemas.ActionSuccess;
  expect(Object.keys(answer.body).every((key) => key in success.properties)).toBe(true);
  expect(success.required.every((key: string) => key in answer.body)).toBe(true);
  const refused = await t.request('POST', '/api/v1/events', { key: secretKey, body: { type: 'signup' } });
  expect(refused.status).toBe(400);
  expect(Object.keys(refused.body).sort()).toEqual([...doc.components.schemas.WireRefusal.required].sort());
});

it('openapi.schemas.json is what `npm run schema` reads from the code', () => {
  expect(readFileSync(SCHEMAS_FILE, 'utf8')).toBe(wireSchemasText()); // else run `npm run schema` and commit the file
}, 60_000);
