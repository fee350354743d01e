// Per-request context for logs and metrics (issue 16): a request id (the caller's X-Request-Id when it
// is a sane token, else a new one, always answered as X-Request-Id) and the refusal code of the answer,
// seen where the envelope is written so every door and the exception filter are covered alike.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The refusal code of a JSON answer ({ok:false, error}), or undefined. */
export function refusalCodeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && (body as { ok?: unknown }).ok === false) {
    const code = (body as { error?: unknown }).error;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The caller's X-Request-Id when it is a sane token, else a new one. */
export function requestIdOf(given: string | string[] | undefined): string {
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const id = requestIdOf(req.headers['x-request-id']);
  (req as Request & { id?: string }).id = id;
  res.setHeader('X-Request-Id', id);
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const code = refusalCodeOf(body);
    if (code) res.locals.refusal = code;
    res.locals.answer = body; // for the metrics' count of event items (observability/metrics.ts)
    return json(body);
  };
  next();
}
