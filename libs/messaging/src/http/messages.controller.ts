// POST and GET /api/v1/messages, GET /api/v1/people/{id or email}/messages (interface.md "Messages endpoints").
import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { Auth, AuthContext, SecretKeyGuard } from '@app/workspaces';
import { RateLimit } from '@app/edge';
import { MessagesService } from '../messages.service';

@Controller('api/v1')
@UseGuards(SecretKeyGuard)
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post('messages')
  @HttpCode(200)
  @RateLimit('server')
  send(@Auth() auth: AuthContext, @Body() body: unknown) {
    return this.messages.send(auth, body);
  }

  @Get('messages')
  page(@Auth() auth: AuthContext, @Query() query: Record<string, unknown>) {
    return this.messages.page(auth, query);
  }

  @Get('people/:who/messages')
  thread(@Auth() auth: AuthContext, @Param('who') who: string) {
    return this.messages.thread(auth, who);
  }
}
