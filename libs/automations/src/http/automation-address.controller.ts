// interface.md "An automation's own address": POST /api/webhooks/automation/{automation_id}.{signature},
// no key. The body arrives as raw bytes (the /api/webhooks parser); the service checks its 8 KB.
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { StartService } from '../start.service';

@Controller('api/webhooks/automation')
export class AutomationAddressController {
  constructor(private readonly starts: StartService) {}

  @Post(':address')
  @HttpCode(200)
  start(@Param('address') address: string, @Req() req: Request) {
    return this.starts.start(address, Buffer.isBuffer(req.body) ? req.body : undefined);
  }
}
