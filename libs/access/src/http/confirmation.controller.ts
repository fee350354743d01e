// {BASE_URL}/confirm/{token}: the link of a double opt-in's confirmation email (docs/security.md#the-confirmation-link).
// GET shows the Confirm button and changes nothing (mail scanners open links); the button's POST confirms. The signed
// token is the only credential, so no session or Origin is asked for; a token not signed here answers 404.
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isRefusal } from '@app/platform';
import { CONFIRM_PATH, ConfirmationLinksService } from '@app/messaging';
import { renderConfirmationNote, renderConfirmationPage } from '../pages';
import { sendPage } from './browser';

const CONFIRMED = 'Confirmed: you are subscribed.';

// HTML pages for browsers, not REST: not in the OpenAPI document.
@ApiExcludeController()
@Controller()
export class ConfirmationController {
  constructor(private readonly links: ConfirmationLinksService) {}

  @Get('confirm/:token')
  async page(@Req() req: Request, @Res() res: Response) {
    const token = String(req.params.token);
    try {
      const view = await this.links.view(token);
      const notice = req.query.done === 'confirmed' && view.status === 'subscribed' ? CONFIRMED : null;
      return sendPage(res, 200, renderConfirmationPage({ ...view, action: this.own(token), notice }));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return sendPage(res, error.status, renderConfirmationNote(error.message));
    }
  }

  @Post('confirm/:token')
  async confirm(@Req() req: Request, @Res() res: Response) {
    const token = String(req.params.token);
    try {
      await this.links.confirm(token, req.ip ?? null);
      return res.redirect(303, `${this.own(token)}?done=confirmed`);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return sendPage(res, error.status, renderConfirmationNote(error.message));
    }
  }

  private own(token: string): string {
    return `${CONFIRM_PATH}/${encodeURIComponent(token)}`;
  }
}
