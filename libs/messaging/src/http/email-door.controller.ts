import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { EmailDoorService } from '../email-door.service';

/** POST /api/webhooks/email: one webhook for the whole deployment, signed with Standard Webhooks. */
@Controller('api/webhooks/email')
export class EmailDoorController {
  constructor(private readonly door: EmailDoorService) {}

  @Post()
  @HttpCode(200)
  receive(@Req() req: Request) {
    return this.door.receive(req.body as Buffer, req.headers);
  }
}
