// GET /api/docs, the reference page of the REST routes (Swagger UI reading
// /api/openapi.json), and GET /api/schema.graphql, the GraphQL schema the api serves, as SDL. Like the
// GraphQL explorer, every file the page loads comes from the api itself (swagger-ui-dist, the copy
// @nestjs/swagger already installs), and the page's policy lets it load nothing from elsewhere.
// Both are middleware, not routes: they are documents about the API, left out of the API's own document.
import type { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { SCHEMA_SDL_PATH, sendRefusal } from '@app/edge';
import { Refusal } from '@app/platform';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OPENAPI_PATH } from '../openapi';
import { printAdminSchema } from '../schema';
import { SAME_ORIGIN_PAGE_POLICY } from '../page-policy';

const API_DOCS_PATH = '/api/docs';
const API_DOCS_ASSET_PATH = `${API_DOCS_PATH}/assets`;

const JS = 'application/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

// The page runs under SAME_ORIGIN_PAGE_POLICY: Swagger UI's React sets styles through the DOM (allowed
// by style-src 'self'); its only outside URL fetched at run time is the validator badge, turned off below.
/** Swagger UI's start, a file of its own since the policy runs no inline script. */
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#reference',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  // Of Swagger UI's code themes, the one whose JSON and shell colours all reach AA contrast.
  syntaxHighlight: { theme: 'idea' },
});
// Swagger UI leaves a few controls without a name, or with one that is not the word shown, and its
// scrolling code blocks out of the keyboard's reach: mended as they appear (axe-core checks the page).
const NAMES = [['#servers', 'Server'], ['.close-modal', 'Close'], ['textarea.body-param__text', 'Request body'], ['select.examples-select-element', 'Example']];
const NOT_THE_SHOWN_WORD = ['Apply credentials', 'Apply given OAuth2 credentials', 'Remove authorization'].map((name) => 'button[aria-label="' + name + '"]').join(', ');
new MutationObserver(() => {
  for (const [selector, name] of NAMES) {
    for (const element of document.querySelectorAll(selector + ':not([aria-label])')) element.setAttribute('aria-label', name);
  }
  for (const button of document.querySelectorAll(NOT_THE_SHOWN_WORD)) button.removeAttribute('aria-label');
  for (const select of document.querySelectorAll('.parameters-col_description select:not([aria-label])')) {
    select.setAttribute('aria-label', select.closest('tr')?.dataset.paramName ?? 'Value');
  }
  for (const code of document.querySelectorAll('.microlight:not([tabindex])')) code.setAttribute('tabindex', '0');
}).observe(document.getElementById('reference'), { childList: true, subtree: true });
`;

/**
 * The links above the reference; and Swagger UI's light colours darkened to AA contrast (4.5:1), with no
 * fade of a button's colours (Execute, shown anew after an answer, faded in from white on transparent).
 */
const PAGE_STYLE = `body { margin: 0; font-family: sans-serif; }
.lifeline-docs { padding: 12px 20px; border-bottom: 1px solid #d8dde7; background: #f6f8fb; }
.lifeline-docs nav { display: flex; flex-wrap: wrap; gap: 8px 24px; max-width: 1420px; margin: 0 auto; }
.lifeline-docs a, .swagger-ui .info a { color: #1f4fa8; }
.swagger-ui .info .title small, .swagger-ui .download-contents { background: #5b6170; }
.swagger-ui .info .title small.version-stamp { background-color: #3d6b00; }
.swagger-ui .btn.authorize, .swagger-ui .btn.authorize svg { color: #1e7a55; border-color: #1e7a55; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1a6bb8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1e7a55; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0282f; }
.swagger-ui .btn.execute { background-color: #1a6bb8; border-color: #1a6bb8; }
.swagger-ui .btn { transition: none; }
.swagger-ui .btn.cancel { color: #c0282f; border-color: #c0282f; }
.swagger-ui .parameter__in, .swagger-ui .response-col_status .response-undocumented { color: #5b6170; }
`;

interface Asset {
  body: Buffer;
  type: string;
}

/** The files the page loads, by the name it loads them under: Swagger UI's, then the page's own. */
function readAssets(): Map<string, Asset> {
  const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));
  return new Map<string, Asset>([
    ['swagger-ui-bundle.js', { body: readFileSync(join(swaggerUi, 'swagger-ui-bundle.js')), type: JS }],
    ['swagger-ui.css', { body: readFileSync(join(swaggerUi, 'swagger-ui.css')), type: CSS }],
    ['api-docs.js', { body: Buffer.from(START_SCRIPT), type: JS }],
    ['api-docs.css', { body: Buffer.from(PAGE_STYLE), type: CSS }],
  ]);
}

let loaded: { files: Map<string, Asset>; version: string } | null = null;

/** Read once, on the first request; `version` (a hash of them all) makes each release's asset URLs new. */
function assets() {
  if (!loaded) {
    const files = readAssets();
    const hash = createHash('sha256');
    for (const { body } of files.values()) hash.update(body);
    loaded = { files, version: hash.digest('hex').slice(0, 12) };
  }
  return loaded;
}

/** The page; the GraphQL explorer is linked where the api serves it (development). */
export function apiDocsHtml(version: string, explorer: boolean): string {
  const asset = (name: string) => `${API_DOCS_ASSET_PATH}/${name}?v=${version}`;
  const graphql = explorer ? '<a href="/graphql">GraphQL explorer</a>' : '<span>GraphQL: POST /graphql</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lifeline REST API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('api-docs.css')}">
</head>
<body>
<header class="lifeline-docs">
<nav aria-label="Other references">
<a href="${OPENAPI_PATH}">OpenAPI document (openapi.json)</a>
${graphql}
<a href="${SCHEMA_SDL_PATH}">GraphQL schema (schema.graphql)</a>
</nav>
</header>
<main id="reference"><p>Loading the reference…</p></main>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('api-docs.js')}"></script>
</body>
</html>
`;
}

function notFound(res: Response, what: string): void {
  res.status(404).json({ ok: false, error: 'not_found', message: `No reference file is named "${what}".` });
}

function servePage(req: Request, res: Response, explorer: boolean): void {
  const path = req.path;
  if (path === '/') {
    res.set({
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': SAME_ORIGIN_PAGE_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    });
    res.type('text/html; charset=utf-8').send(apiDocsHtml(assets().version, explorer));
    return;
  }
  const name = path.startsWith('/assets/') ? path.slice('/assets/'.length) : '';
  const file = assets().files.get(name);
  if (!file) return notFound(res, path.slice(1));
  res
    .set({
      'Content-Type': file.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(file.body);
}

/** Installs GET /api/docs (with its files) and GET /api/schema.graphql (HEAD too; any other method 405). */
export function installApiDocs(app: INestApplication, options: { explorer: boolean }): void {
  let sdl: string | null = null;
  app.use(API_DOCS_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    servePage(req, res, options.explorer);
  });
  app.use(SCHEMA_SDL_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/') return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const sentence = `The schema is read with GET (or HEAD): GET ${SCHEMA_SDL_PATH}; queries are posted to /graphql.`;
      return sendRefusal(res, new Refusal('method_not_allowed', sentence, { headers: { Allow: 'GET, HEAD' } }));
    }
    // Printed from the schema the api serves (built once the app has started), so it is never another one.
    sdl ??= printAdminSchema(app.get(GraphQLSchemaHost).schema);
    res
      .set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' })
      .type('text/plain; charset=utf-8')
      .send(sdl);
  });
}
