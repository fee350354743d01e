// The admin console's built files (scripts/build-console.js) at /console. Assets carry a
// hash in their names, so they are cached for a year; every other path under /console answers the
// app's page, never cached (a new build shows at once), and the app routes the deep link itself.
// The build compresses each asset beside itself (name.br, name.gz): a browser that accepts brotli or
// gzip is sent that file as it is, nothing compressed per request (docs/console.md#speed).
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { stat, readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
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

/** The compressed copies the build writes, best first: the file's suffix and its Content-Encoding. */
const ENCODINGS: [suffix: string, encoding: string][] = [
  ['.br', 'br'],
  ['.gz', 'gzip'],
];

/** The types of the files the build compresses (scripts, styles, pictures drawn as text). */
const COMPRESSED_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The encodings a request's Accept-Encoding allows (a q of 0 refuses one). */
function accepted(header: string | undefined): Set<string> {
  const allowed = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) allowed.add(name.trim());
  }
  return allowed;
}

/** The compressed copy to send instead of the asset, if the browser takes one and the build made it. */
async function compressedCopy(dir: string, path: string, header: string | undefined): Promise<[string, string] | null> {
  const allowed = accepted(header);
  let file: string;
  try {
    file = join(dir, normalize(decodeURIComponent(path)));
  } catch {
    return null; // not an address of a file: static answers it
  }
  if (!file.startsWith(dir + sep)) return null;
  for (const [suffix, encoding] of ENCODINGS) {
    if (!allowed.has(encoding)) continue;
    const found = await stat(file + suffix).catch(() => null);
    if (found?.isFile()) return [suffix, encoding];
  }
  return null;
}

export function installConsole(app: UsesHandlers, dir: string): void {
  const assetsDir = join(dir, 'assets');
  const assets = express.static(assetsDir, {
    immutable: true,
    maxAge: '365d',
    index: false,
    fallthrough: false,
    etag: false,
    setHeaders(res, path) {
      // A compressed copy is typed as the file it holds (name.js.br is JavaScript).
      const encoding = ENCODINGS.find(([suffix]) => path.endsWith(suffix));
      if (!encoding) return;
      res.setHeader('Content-Encoding', encoding[1]);
      res.setHeader(
        'Content-Type',
        COMPRESSED_TYPES[extname(path.slice(0, -encoding[0].length))] ?? 'application/octet-stream',
      );
    },
  });
  app.use(`${CONSOLE_PATH}/assets`, (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Vary', 'Accept-Encoding');
    void compressedCopy(assetsDir, req.path, req.headers['accept-encoding']).then((copy) => {
      if (copy) req.url = req.url.replace(/^[^?]*/, (path) => path + copy[0]);
      assets(req, res, (error?: unknown) => (error ? notFound(res) : next()));
    }, next);
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
