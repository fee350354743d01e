// {BASE_URL}/sign-in. A member signs in with a secret key, a one-time email link or
// the operator's ADMIN_TOKEN; the session is a cookie (HttpOnly, SameSite=Lax, Secure under https).
// Plain HTML with no script; a refusal is shown on the page (role alert) with its status. Signing in
// ends where `next` says, else in the console (docs/console.md#signing-in); a signed-in browser asking
// for /sign-in is sent on the same way.
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig, CONFIG, isRefusal, RateLimits, Refusal } from '@app/platform';
import { safeNext, SessionsService, SignedIn } from '@app/workspaces';
import { renderLinkPage, renderSignInPage, renderWorkspacePicker } from '../pages';
import { SignInMail } from '../sign-in-mail';
import { clearSessionCookie, formField, fromOwnPages, sendPage, sessionTokenOf, setSessionCookie } from './browser';

/** Where signing in ends when nothing asked for a page: the console, which opens on its home page. */
const CONSOLE = '/console/';

/** The page to end on: the one asked for, or the console (never /sign-in itself, which would only send on). */
const landing = (next: unknown): string => {
  const safe = safeNext(next);
  return safe === '/sign-in' ? CONSOLE : safe;
};

const LINK_SENT = 'If that address belongs to a member, a sign-in link is on its way. It works once, for 15 minutes.';

// HTML pages for browsers, not REST: not in the OpenAPI document.
@ApiExcludeController()
@Controller()
export class SignInController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    private readonly mail: SignInMail,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('sign-in')
  async page(@Req() req: Request, @Res() res: Response) {
    const signedIn = await this.sessions.current(sessionTokenOf(req));
    if (!signedIn) return this.signInPage(res, 200, landing(req.query.next));
    return res.redirect(303, landing(req.query.next));
  }

  @Post('sign-in/key')
  key(@Req() req: Request, @Res() res: Response) {
    return this.attempt(req, res, () => this.sessions.withKey(formField(req, 'key')));
  }

  @Post('sign-in/operator')
  operator(@Req() req: Request, @Res() res: Response) {
    return this.attempt(req, res, () => this.sessions.asOperator(formField(req, 'token')));
  }

  @Post('sign-in/email')
  async email(@Req() req: Request, @Res() res: Response) {
    const next = safeNext(formField(req, 'next'));
    const email = formField(req, 'email').trim().toLowerCase();
    try {
      this.ownPagesOnly(req);
      await this.limits.consume('sign-in:ip', req.ip ?? '');
      await this.limits.consume('sign-in:email', email);
      if (this.mail.delivery === 'off')
        throw new Refusal(
          'forbidden',
          'Email links need an email provider (SMTP_URL or RESEND_API_KEY): sign in with a secret key.',
        );
      if (!/^[^@\s]+@[^@\s]+$/.test(email))
        throw new Refusal('invalid_email', 'Enter the email address you are a member with, like ada@example.com.');
      const token = await this.sessions.linkFor(email, next);
      if (token) await this.mail.send(email, token);
      return this.signInPage(res, 200, next, null, LINK_SENT);
    } catch (error) {
      return this.refused(res, error, next);
    }
  }

  @Get('sign-in/link')
  link(@Req() req: Request, @Res() res: Response) {
    sendPage(res, 200, renderLinkPage({ token: typeof req.query.token === 'string' ? req.query.token : '' }));
  }

  @Post('sign-in/link')
  async useLink(@Req() req: Request, @Res() res: Response) {
    try {
      this.ownPagesOnly(req);
      await this.limits.consume('sign-in:ip', req.ip ?? '');
      const { token, next, picked } = await this.sessions.withLink(formField(req, 'token'));
      setSessionCookie(res, token, this.config.baseUrl);
      return res.redirect(303, picked ? next : `/sign-in/workspace?next=${encodeURIComponent(next)}`);
    } catch (error) {
      return this.refused(res, error, '/sign-in');
    }
  }

  @Get('sign-in/workspace')
  async picker(@Req() req: Request, @Res() res: Response) {
    const signedIn = await this.sessions.current(sessionTokenOf(req));
    if (!signedIn) return res.redirect(303, `/sign-in?next=${encodeURIComponent('/sign-in/workspace')}`);
    return this.pickerPage(res, 200, signedIn, safeNext(req.query.next));
  }

  @Post('sign-in/workspace')
  async pick(@Req() req: Request, @Res() res: Response) {
    const next = safeNext(formField(req, 'next'));
    const signedIn = await this.sessions.current(sessionTokenOf(req));
    if (!signedIn) return res.redirect(303, `/sign-in?next=${encodeURIComponent(next)}`);
    try {
      this.ownPagesOnly(req);
      await this.sessions.pick(signedIn, formField(req, 'workspace'));
      return res.redirect(303, next);
    } catch (error) {
      return this.pickerPage(
        res,
        isRefusal(error) ? error.status : 500,
        signedIn,
        next,
        isRefusal(error) ? error.message : 'Something went wrong: try again.',
      );
    }
  }

  @Post('sign-out')
  async signOut(@Req() req: Request, @Res() res: Response) {
    if (!fromOwnPages(req, this.config.baseUrl))
      return this.signInPage(res, 403, '/sign-in', "Sign out from this service's own page.");
    const signedIn = await this.sessions.current(sessionTokenOf(req));
    if (signedIn) await this.sessions.signOut(signedIn);
    clearSessionCookie(res, this.config.baseUrl);
    return res.redirect(303, '/sign-in');
  }

  /** A sign-in post: rate limited per IP, then the session cookie and on to `next`; a refusal re-renders the page. */
  private async attempt(req: Request, res: Response, open: () => Promise<string>) {
    const next = safeNext(formField(req, 'next'));
    try {
      this.ownPagesOnly(req);
      await this.limits.consume('sign-in:ip', req.ip ?? '');
      setSessionCookie(res, await open(), this.config.baseUrl);
      return res.redirect(303, next);
    } catch (error) {
      return this.refused(res, error, next);
    }
  }

  private ownPagesOnly(req: Request): void {
    if (!fromOwnPages(req, this.config.baseUrl))
      throw new Refusal('forbidden', "Sign in from this service's own sign-in page.");
  }

  private refused(res: Response, error: unknown, next: string) {
    if (!isRefusal(error)) throw error;
    if (typeof error.extra.retryAfter === 'number') res.setHeader('Retry-After', String(error.extra.retryAfter));
    return this.signInPage(res, error.status, next, error.message);
  }

  private signInPage(
    res: Response,
    status: number,
    next: string,
    alert: string | null = null,
    notice: string | null = null,
  ) {
    const delivery = this.mail.delivery;
    const html = renderSignInPage({
      next,
      alert,
      notice,
      emailLinksLogged: delivery === 'logged',
      emailLinksOff: delivery === 'off',
      operator: !!this.config.adminToken,
    });
    sendPage(res, status, html);
  }

  private async pickerPage(
    res: Response,
    status: number,
    signedIn: SignedIn,
    next: string,
    alert: string | null = null,
  ) {
    const workspaces = (await this.sessions.memberships(signedIn)).map((m) => ({
      id: m.workspace_id,
      name: m.workspace_name,
      slug: m.workspace_slug,
      role: m.role,
      current: m.workspace_id === signedIn.auth?.workspaceId,
    }));
    sendPage(res, status, renderWorkspacePicker({ email: signedIn.email ?? '', next, workspaces, alert }));
  }
}
