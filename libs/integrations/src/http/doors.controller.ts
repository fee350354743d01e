// POST /api/webhooks/{payment|auth_a|auth_b|hosting}/{token} (interface.md "Inbound doors"). The body
// arrives as raw bytes (edge's body parsers, 256 KB cap); each kind is its own route so the automation
// address beside them (/api/webhooks/automation/…) stays its own.
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DoorIntakeService } from '../door-intake.service';

@Controller('api/webhooks')
export class DoorsController {
  constructor(private readonly intake: DoorIntakeService) {}

  private receive(kind: string, token: string, req: Request) {
    return this.intake.receive(kind, token, { raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), headers: req.headers });
  }

  @Post('payment/:token')
  @HttpCode(200)
  payment(@Param('token') token: string, @Req() req: Request) {
    return this.receive('payment', token, req);
  }

  @Post('auth_a/:token')
  @HttpCode(200)
  authA(@Param('token') token: string, @Req() req: Request) {
    return this.receive('auth_a', token, req);
  }

  @Post('auth_b/:token')
  @HttpCode(200)
  authB(@Param('token') token: string, @Req() req: Request) {
    return this.receive('auth_b', token, req);
  }

  @Post('hosting/:token')
  @HttpCode(200)
  hosting(@Param('token') token: string, @Req() req: Request) {
    return this.receive('hosting', token, req);
  }
}
