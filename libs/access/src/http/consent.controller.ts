// The consent page's decision. Allow makes a one-time code for the signed request and
// sends the browser back to the client with it; Deny sends it back with access_denied. The request
// must be the one this session's consent page showed (consent-request.ts).
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig, CONFIG, isRefusal } from '@app/platform';
import { ConnectionsService, SessionsService, SignInClock } from '@app/workspaces';
import { authorizeRedirect, openConsent } from '../oauth/consent-request';
import { formField, fromOwnPages, refusedPage, sessionTokenOf } from './browser';

const STALE =
  'This consent page has run out or belongs to another sign-in: start connecting again from your MCP client.';

// HTML pages for browsers, not REST: not in the OpenAPI document.
@ApiExcludeController()
@Controller()
export class ConsentController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly connections: ConnectionsService,
    private readonly clock: SignInClock,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('consent')
  async decide(@Req() req: Request, @Res() res: Response) {
    const request = openConsent(formField(req, 'request'), this.config.appSecret, this.clock.now().getTime());
    const signedIn = await this.sessions.current(sessionTokenOf(req));
    if (
      !request ||
      !signedIn?.auth ||
      signedIn.sessionId !== request.sessionId ||
      !fromOwnPages(req, this.config.baseUrl)
    ) {
      return refusedPage(res, 400, STALE);
    }
    if (formField(req, 'decision') !== 'allow') {
      return res.redirect(
        302,
        authorizeRedirect(request.redirectUri, this.config.baseUrl, {
          error: 'access_denied',
          error_description: 'The member denied access.',
          state: request.state,
        }),
      );
    }
    try {
      const { workspaceId, memberId } = signedIn.auth;
      const code = await this.connections.consent({ ...request, workspaceId, memberId });
      return res.redirect(
        302,
        authorizeRedirect(request.redirectUri, this.config.baseUrl, { code, state: request.state }),
      );
    } catch (error) {
      if (isRefusal(error)) return refusedPage(res, error.status, error.message);
      throw error;
    }
  }
}
