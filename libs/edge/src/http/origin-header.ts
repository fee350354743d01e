// An Origin header is `null` (a sandboxed frame, a file:// page) or one origin exactly as a browser writes
// it: http or https, the host and a port, nothing else (docs/security.md#browser-pages-and-origins).
// Anything else is refused before any route reads it, so no answer echoes it in Access-Control-Allow-Origin
// and no heartbeat counts it; the sentence never repeats the value.
import type { NextFunction, Request, Response } from 'express';
import { Refusal } from '@app/platform';
import { sendRefusalFor } from './body-parsers';

/** Longer than any site's origin a workspace would name. */
const MAX_ORIGIN_LENGTH = 200;

/** Whether a request's Origin header (when it has one) may be read as an origin. */
export function originHeaderReadable(origin: string | undefined): boolean {
  if (origin === undefined || origin === 'null') return true;
  if (origin.length > MAX_ORIGIN_LENGTH || !/^https?:\/\//.test(origin)) return false;
  try {
    // The WHATWG parser's serialization: lower case, no default port, no path, user or query.
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}

const notAnOrigin = () =>
  new Refusal(
    'origin_not_allowed',
    'The Origin header is not an origin: a browser sends null or scheme://host[:port], with http or https, ' +
      `in at most ${MAX_ORIGIN_LENGTH} characters.`,
  );

/** Express middleware, first of all: an Origin header that is not an origin is answered 403 here. */
export function refuseOriginsThatAreNot(req: Request, res: Response, next: NextFunction): void {
  if (originHeaderReadable(req.headers.origin)) return next();
  sendRefusalFor(req, res, notAnOrigin());
}
