// POST and GET /api/v1/messages, GET /api/v1/people/{id or email}/messages (interface.md "Messages endpoints").
import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Auth, AuthContext, SecretKeyGuard, WorkspacesService } from '@app/workspaces';
import { bySecretKey, door, DoorRequest, DoorRoute, Doors, OpenDoor } from '@app/edge';
import { MessagesService } from '../messages.service';

interface MessagesDoorServices {
  workspaces: WorkspacesService;
  messages: MessagesService;
}

/** POST /api/v1/messages: one message to send, from servers. */
export const MESSAGES_DOOR = door({
  method: 'POST',
  path: '/api/v1/messages',
  status: 200,
  // A message body may hold 20,000 characters, which JSON escapes can make six times as many bytes.
  bodyLimit: 256 * 1024,
  authenticate: (req, { workspaces }: MessagesDoorServices) => workspaces.authenticateRequest(req),
  rateLimit: { limit: 'server', key: bySecretKey },
  handle: (body, req, { messages }) => messages.send(req.auth!, body),
});

@Controller()
export class MessagesController {
  private readonly sends: OpenDoor<MessagesDoorServices>;

  constructor(
    private readonly messages: MessagesService,
    doors: Doors,
    workspaces: WorkspacesService,
  ) {
    this.sends = doors.open(MESSAGES_DOOR, { workspaces, messages });
  }

  @DoorRoute(MESSAGES_DOOR)
  send(@Req() req: DoorRequest, @Res() res: Response) {
    return this.sends.serve(req, res);
  }

  @Get('api/v1/messages')
  @UseGuards(SecretKeyGuard)
  page(@Auth() auth: AuthContext, @Query() query: Record<string, unknown>) {
    return this.messages.page(auth, query);
  }

  @Get('api/v1/people/:who/messages')
  @UseGuards(SecretKeyGuard)
  thread(@Auth() auth: AuthContext, @Param('who') who: string) {
    return this.messages.thread(auth, who);
  }
}
