// Issue 16 item 9: GET /api/openapi.json describes exactly the REST routes the app serves.
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
  const served = servedRoutes().filter((r) => r !== 'GET /api/openapi.json' && !r.endsWith(' /{*path}'));
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
