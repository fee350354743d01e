// What the sign-in pages answer and read: HTML that no other site may frame, the session cookie, form
// bodies (8 KB, checked like every body: docs/security.md#input-every-door-refuses-what-no-door-can-store),
// and the login-CSRF check of a post.
import express, { NextFunction, Request, Response } from 'express';
import { hostileJsonRefusal } from '@app/edge';
import { SESSION_COOKIE, SESSION_MAX_MS, sessionCookieOf } from '@app/workspaces';
import { renderPage } from '../pages/page';

const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

export function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .setHeader('Content-Security-Policy', PAGE_POLICY)
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Referrer-Policy', 'same-origin');
  res.type('html').send(html);
}

export function setSessionCookie(res: Response, token: string, baseUrl: string): void {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: baseUrl.startsWith('https:'),
    path: '/',
    maxAge: SESSION_MAX_MS,
  });
}

export function clearSessionCookie(res: Response, baseUrl: string): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https:'), path: '/' });
}

export function sessionTokenOf(req: Request): string | undefined {
  return sessionCookieOf(req.headers.cookie);
}

/** A form post's fields as strings (a repeated or missing field reads as ''). */
export function formField(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Reads urlencoded form bodies of the sign-in pages and refuses hostile ones as every door does. */
export function formReader(): Array<(req: Request, res: Response, next: NextFunction) => void> {
  const read = express.urlencoded({ extended: false, limit: '8kb', type: 'application/x-www-form-urlencoded' });
  return [
    // A body the reader cannot take (too large, an unknown encoding) is answered on a page, as a refusal.
    (req, res, next) =>
      'body' in req
        ? next()
        : read(req, res, (error?: { status?: number }) =>
            error ? refusedPage(res, error.status, UNREADABLE) : next(),
          ),
    (req, res, next) => {
      const refusal = hostileJsonRefusal(req.body ?? {});
      if (refusal) return refusedPage(res, 400, refusal.message);
      next();
    },
  ];
}

const UNREADABLE = 'The form could not be read: send it from the page, as a form of at most 8 KB.';

/** A refused post: a page saying why (role alert), with a 4xx status. */
export function refusedPage(res: Response, status: number | undefined, alert: string): void {
  sendPage(
    res,
    status && status >= 400 && status < 500 ? status : 400,
    renderPage({ title: 'Refused', body: '<h1>Not sent</h1><p><a href="/sign-in">Back to sign-in</a></p>', alert }),
  );
}

/** Login CSRF: a post to a sign-in form must come from this service's own pages when the browser says where from. */
export function fromOwnPages(req: Request, baseUrl: string): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === new URL(baseUrl).origin;
}
