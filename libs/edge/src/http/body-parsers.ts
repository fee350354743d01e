// Body limits (each route's in docs/rest.md): each door reads its body at the limit it declares (door.ts),
// before anything else about the post; the rest of each area reads at the area's (8 KB under /api/in, 64 KB
// under /api/v1). Third-party doors keep the raw bytes: their signatures cover them. Every door also passes
// the one hostile-input step here (docs/security.md#input-every-door-refuses-what-no-door-can-store), so a
// door mounted under these prefixes later inherits it without doing anything.
import express, { NextFunction, Request, Response } from 'express';
import { Refusal, readScope } from '@app/platform';
import { sendRefusal } from './exceptions.filter';
import { documentSizeRefusal } from '../graphql/query-limits';
import { hostileJsonRefusal, hostileRequestLineRefusal } from './posted-input';
import type { OpenDoor } from './door/door';

const anyType = () => true;

/** Bodies from servers (and at the tool door): 64 KB. */
export const SERVER_BODY_LIMIT = 64 * 1024;
/** Bodies from browsers: 8 KB. */
export const BROWSER_BODY_LIMIT = 8 * 1024;
/** Raw bodies under /api/webhooks, kept for their signatures. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

export const tooLargeRefusal = (limit: number) =>
  new Refusal('too_large', `The body is over ${Math.round(limit / 1024)} KB: send less, or split a batch.`);
export const invalidJsonRefusal = () =>
  new Refusal('invalid_json', 'The body is not valid JSON: send one JSON object encoded as UTF-8.');
const GRAPHQL_PATH = '/graphql';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** GraphQL clients read `errors`, not the REST envelope; the same code and sentence either way. */
export function sendRefusalFor(req: Request, res: Response, refusal: Refusal): void {
  if (req.originalUrl.split('?')[0].replace(/\/+$/, '') === GRAPHQL_PATH) {
    res
      .status(refusal.status)
      .json({ errors: [{ message: refusal.message, extensions: { code: refusal.code, status: refusal.status } }] });
    return;
  }
  sendRefusal(res, refusal);
}

/** Path segments and query parameters: no NUL, no lone surrogate, nothing that fails to decode. */
const checkRequestLine: Middleware = (req, res, next) => {
  const refusal = hostileRequestLineRefusal(req.path, req.query as Record<string, unknown>);
  if (refusal) return sendRefusalFor(req, res, refusal);
  next();
};

/** A parsed JSON body (or GraphQL variables) holds nothing PostgreSQL or the stack cannot take. */
const checkJsonBody: Middleware = (req, res, next) => checkParsed(req.body, req, res, next);

function checkParsed(value: unknown, req: Request, res: Response, next: NextFunction): void {
  const refusal = hostileJsonRefusal(value);
  if (refusal) return sendRefusalFor(req, res, refusal);
  next();
}

/** Raw door bodies stay bytes for their signatures; when they are JSON, the same check applies. */
const checkRawJsonBody: Middleware = (req, res, next) => {
  if (!Buffer.isBuffer(req.body) || req.body.length === 0) return next();
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.body.toString('utf8'));
  } catch {
    return next(); // not JSON: the door's own parser answers it
  }
  checkParsed(parsed, req, res, next);
};

/** GraphQL documents with too many fields or aliases are refused before Apollo validates them. */
const checkGraphqlDocument: Middleware = (req, res, next) => {
  const source = req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
  const refusal =
    documentSizeRefusal(source) ?? (req.method === 'GET' ? getVariablesRefusal(req.query.variables) : null);
  if (refusal) return sendRefusalFor(req, res, refusal);
  next();
};

/** A GET carries its variables as JSON text in the query string: checked like a body's. */
function getVariablesRefusal(variables: unknown): Refusal | null {
  if (typeof variables !== 'string') return null;
  try {
    return hostileJsonRefusal(JSON.parse(variables), 'variables');
  } catch {
    return null; // not JSON: Apollo answers it
  }
}

/** The rest of a GraphQL request runs in a read scope; queryLimitsPlugin arms it for query operations. */
const enterReadScope: Middleware = (_req, _res, next) => readScope.run({ timeoutMs: 0 }, next);

/** Reads a body no reader before it has read (each door's reader runs before its area's), then checks it. */
function bodyReader(read: Middleware, check: Middleware): Middleware {
  return (req, res, next) => {
    if ('body' in req) return next();
    read(req, res, (error?: unknown) => (error ? next(error) : check(req, res, next)));
  };
}

const jsonReader = (limit: number) => bodyReader(express.json({ type: anyType, limit, strict: false }), checkJsonBody);
const rawReader = (limit: number) => bodyReader(express.raw({ type: anyType, limit }), checkRawJsonBody);

/** The body readers: every door's at its path (and under it), then each area's for the rest. */
export function installBodyParsers(
  app: { use: (...args: any[]) => unknown },
  doors: Iterable<Pick<OpenDoor, 'path' | 'bodyLimit' | 'rawBody'>>,
): void {
  app.use(checkRequestLine);
  for (const door of doors) app.use(door.path, door.rawBody ? rawReader(door.bodyLimit) : jsonReader(door.bodyLimit));
  app.use('/api/webhooks', rawReader(WEBHOOK_BODY_LIMIT));
  app.use('/api/in', jsonReader(BROWSER_BODY_LIMIT));
  app.use('/api/v1', jsonReader(SERVER_BODY_LIMIT));
  app.use(GRAPHQL_PATH, express.json({ limit: '256kb' }), checkJsonBody, checkGraphqlDocument, enterReadScope);
  app.use(bodyParserRefusal);
}

/** Whatever body-parser could not read answers in the envelope, never a 500 or an HTML page. */
function bodyParserRefusal(
  error: { type?: string; limit?: number; status?: number; statusCode?: number },
  req: Request,
  res: Response,
  next: NextFunction,
) {
  const status = error?.status ?? error?.statusCode;
  if (error?.type === 'entity.too.large' || status === 413) {
    return sendRefusalFor(req, res, tooLargeRefusal(error.limit ?? 0));
  }
  if (
    error?.type === 'encoding.unsupported' ||
    (status === 400 && error?.type === undefined && req.headers['content-encoding'])
  ) {
    const encoding = String(req.headers['content-encoding']).slice(0, 40);
    return sendRefusalFor(
      req,
      res,
      new Refusal(
        'invalid_json',
        `The body could not be decoded as "${encoding}": send it uncompressed, or compressed with gzip, ` +
          `deflate or br to match Content-Encoding.`,
      ),
    );
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return sendRefusalFor(req, res, invalidJsonRefusal());
  }
  next(error);
}
