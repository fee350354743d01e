// {BASE_URL}/preferences/{token}: the signed link of every email to a workspace's people
// (docs/rest.md#the-preferences-link). GET shows the preference page; a POST of RFC 8058's
// `List-Unsubscribe=One-Click` unsubscribes with no page and no cookie (a mail provider posts it, with no Origin);
// the page's own form saves the lists left ticked. The signed token is the only credential, so no session or
// Origin is asked for; a token not signed here answers 404 and changes nothing.
import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isRefusal } from '@app/platform';
import { isOneClick, PREFERENCES_PATH, PreferencesService } from '@app/messaging';
import { renderPreferencesNote, renderPreferencesPage } from '../pages';
import { sendPage } from './browser';

const SAVED = 'Saved: you are on the lists left ticked.';
const UNSUBSCRIBED = 'You are unsubscribed: no more email will come from here.';

/** The ticked lists of the page's form: one field, or several of the same name. */
function ticked(req: Request): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.list;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

// HTML pages for browsers and a mail provider's one-click POST, not REST: not in the OpenAPI document.
@ApiExcludeController()
@Controller()
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get('preferences/:token')
  async page(@Req() req: Request, @Res() res: Response) {
    const notice = req.query.done === 'saved' ? SAVED : req.query.done === 'unsubscribed' ? UNSUBSCRIBED : null;
    return this.show(res, String(req.params.token), notice);
  }

  @Post('preferences/:token')
  async post(@Req() req: Request, @Res() res: Response) {
    const token = String(req.params.token);
    const own = `${PREFERENCES_PATH}/${encodeURIComponent(token)}`;
    try {
      if (isOneClick(req.body)) {
        await this.preferences.oneClick(token, req.ip ?? null);
        // A mail provider reads the status; a person who pressed the page's button sees the page again.
        return req.headers.accept?.includes('text/html')
          ? res.redirect(303, `${own}?done=unsubscribed`)
          : sendPage(res, 200, renderPreferencesNote({ notice: UNSUBSCRIBED }));
      }
      if ((req.body as Record<string, unknown> | undefined)?.form !== 'preferences')
        return sendPage(
          res,
          400,
          renderPreferencesNote({
            alert: 'Send List-Unsubscribe=One-Click to unsubscribe, or save the lists from the preference page.',
          }),
        );
      await this.preferences.save(token, ticked(req), req.ip ?? null);
      return res.redirect(303, `${own}?done=saved`);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return sendPage(res, error.status, renderPreferencesNote({ alert: error.message }));
    }
  }

  private async show(res: Response, token: string, notice: string | null) {
    try {
      const view = await this.preferences.view(token);
      return sendPage(
        res,
        200,
        renderPreferencesPage({
          action: `${PREFERENCES_PATH}/${encodeURIComponent(token)}`,
          workspaceName: view.workspaceName,
          lists: view.lists,
          optedOutAt: view.optOut?.at ?? null,
          notice,
        }),
      );
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return sendPage(res, error.status, renderPreferencesNote({ alert: error.message }));
    }
  }
}
