// The GraphQL explorer: GraphiQL 3 with React 18, all served by the api itself from the
// installed packages, so it works with no network beyond the service. Apollo shows it as its landing
// page (GET /graphql from a browser); the scripts and styles are under /graphiql/. The page has the console's
// headers and policy (EXPLORER_PAGE_POLICY: nothing inline, no frame around it), so its start is a file too.
import type { ApolloServerPlugin } from '@apollo/server';
import { Controller, Get, Param, Res } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXPLORER_PAGE_POLICY } from '../page-policy';

const JS = 'application/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

// Signed in at /sign-in, the page's queries carry the session cookie; a program's key goes in the Headers tab.
const DEFAULT_QUERY =
  '# Signed in at /sign-in? Queries run as you. Otherwise put\n# {"Authorization": "Bearer sk_live_…"} (or ' +
  'ADMIN_TOKEN) in the Headers tab.\n{ workspace { slug name } }\n';

/** The page's start, a file of its own since the policy runs no inline script; the page names the endpoint. */
const START_SCRIPT = `const root = document.getElementById('graphiql');
const fetcher = GraphiQL.createFetcher({ url: root.dataset.url });
ReactDOM.createRoot(root).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: ${JSON.stringify(DEFAULT_QUERY)},
    defaultEditorToolsVisibility: 'headers',
  }),
);
`;
const START_STYLE = 'html, body, #graphiql { height: 100%; margin: 0; }\n';

/** The files the page loads, by the name it loads them under: from a package, or written here. */
const ASSETS: Record<string, { pkg: string; file: string; type: string } | { text: string; type: string }> = {
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: JS },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: JS },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: JS },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: CSS },
  'explorer.js': { text: START_SCRIPT, type: JS },
  'explorer.css': { text: START_STYLE, type: CSS },
};

const EXPLORER_ASSET_PATH = '/graphiql';

/** The page; `version` (a hash of the assets) makes each build's asset URLs new, so they cache for a year. */
function explorerHtml(graphqlPath: string, version: string): string {
  const asset = (name: string) => `${EXPLORER_ASSET_PATH}/${name}?v=${version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lifeline GraphQL explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${asset('graphiql.min.css')}">
<link rel="stylesheet" href="${asset('explorer.css')}">
</head>
<body>
<div id="graphiql" data-url="${graphqlPath}">Loading the explorer…</div>
<script src="${asset('react.production.min.js')}"></script>
<script src="${asset('react-dom.production.min.js')}"></script>
<script src="${asset('graphiql.min.js')}"></script>
<script src="${asset('explorer.js')}"></script>
</body>
</html>
`;
}

interface Loaded {
  body: Buffer;
  type: string;
}

let loaded: { files: Map<string, Loaded>; version: string } | null = null;

function assets() {
  if (!loaded) {
    const files = new Map<string, Loaded>();
    const hash = createHash('sha256');
    for (const [name, asset] of Object.entries(ASSETS)) {
      // Packages' "exports" hide their umd/ folders from require.resolve; their package.json is exported.
      const body =
        'text' in asset
          ? Buffer.from(asset.text)
          : readFileSync(join(dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file));
      hash.update(body);
      files.set(name, { body, type: asset.type });
    }
    loaded = { files, version: hash.digest('hex').slice(0, 12) };
  }
  return loaded;
}

/** Apollo's landing page replaced by the GraphiQL page. */
export function explorerLandingPage(graphqlPath: string): ApolloServerPlugin {
  return {
    async serverWillStart() {
      const html = explorerHtml(graphqlPath, assets().version);
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}

/**
 * The page's headers, the console's (console-files.ts), set before Apollo answers GET /graphql: Apollo
 * gives its landing page a Content-Type only. A JSON answer to a GET query carries them too, to no effect.
 */
export function installExplorerHeaders(app: Pick<INestApplication, 'use'>, graphqlPath: string): void {
  app.use(graphqlPath, (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      res.set({
        'Cache-Control': 'no-cache',
        'Content-Security-Policy': EXPLORER_PAGE_POLICY,
        'X-Frame-Options': 'DENY',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'same-origin',
      });
    }
    next();
  });
}

// Files of the explorer's page for browsers, not REST: not in the OpenAPI document.
@ApiExcludeController()
@Controller(EXPLORER_ASSET_PATH.slice(1))
export class ExplorerAssetsController {
  @Get(':name')
  asset(@Param('name') name: string, @Res() res: Response) {
    const file = Object.hasOwn(ASSETS, name) ? assets().files.get(name) : undefined;
    if (!file)
      return res.status(404).json({ ok: false, error: 'not_found', message: `No explorer file is named "${name}".` });
    res
      .set({
        'Content-Type': file.type,
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(file.body);
  }
}
