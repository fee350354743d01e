// The admin console's built files (scripts/build-console.js) at /console. Assets carry a
// hash in their names, so they are cached for a year; every other path under /console answers the
// app's page, never cached (a new build shows at once), and the app routes the deep link itself.
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAME_ORIGIN_PAGE_POLICY } from '../page-policy';

const CONSOLE_PATH = '/console';

// The console talks only to this service (GraphQL at /graphql) and loads nothing from elsewhere:
// SAME_ORIGIN_PAGE_POLICY.
const NOT_BUILT =
  'The console is not built here: run `npm run build:console` (npm start and npm run build do it for you).';

/** What installConsole needs of an app: Nest's express application, or express itself in the unit test. */
export interface UsesHandlers {
  use(path: string, handler: RequestHandler): unknown;
}

export function installConsole(app: UsesHandlers, dir: string): void {
  const assets = express.static(join(dir, 'assets'), {
    immutable: true,
    maxAge: '365d',
    index: false,
    fallthrough: false,
    etag: false,
  });
  app.use(`${CONSOLE_PATH}/assets`, (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    assets(req, res, (error?: unknown) => (error ? notFound(res) : next()));
  });
  app.use(CONSOLE_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    void page(dir).then((html) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'same-origin');
      if (html === null) return res.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      res.setHeader('Content-Security-Policy', SAME_ORIGIN_PAGE_POLICY);
      return res.status(200).type('text/html; charset=utf-8').send(html);
    }, next);
  });
}

function notFound(res: Response): void {
  res
    .status(404)
    .type('text/plain; charset=utf-8')
    .send('No such console file: reload the console to get the current build.');
}

/** The app's page, read each time (a few hundred bytes), so a rebuild needs no restart. */
async function page(dir: string): Promise<string | null> {
  try {
    return await readFile(join(dir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}
