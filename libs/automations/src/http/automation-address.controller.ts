// interface.md "An automation's own address": POST /api/webhooks/automation/{automation_id}.{signature},
// no key: the signed address is the caller's credential.
import { Controller, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { door, DoorRequest, DoorRoute, Doors, OpenDoor, WEBHOOK_BODY_LIMIT } from '@app/edge';
import { AutomationRow } from '../automations.repository';
import { parseStartBody } from '../domain';
import { StartService } from '../start.service';

interface AddressServices {
  starts: StartService;
}

/** A post to an address, once its signature held: the automation it names. */
type AddressedRequest = DoorRequest & { automation?: AutomationRow };
const automationOf = (req: DoorRequest) => (req as AddressedRequest).automation!;

/**
 * POST /api/webhooks/automation/{address}. Its limit is counted once the signature holds, so posts
 * with a wrong one never spend a real address's allowance. The body comes as raw bytes, like every
 * door's under /api/webhooks (up to 256 KB); its own 8 KB is checked by parse, after the signature, so
 * a wrong signature answers not_found whatever the size.
 */
export const AUTOMATION_ADDRESS_DOOR = door({
  method: 'POST',
  path: '/api/webhooks/automation/:address',
  status: 200,
  body: 'raw',
  bodyLimit: WEBHOOK_BODY_LIMIT,
  async authenticate(req, { starts }: AddressServices) {
    (req as AddressedRequest).automation = await starts.automationAt(String(req.params.address));
  },
  rateLimit: { limit: 'automation', key: (req) => automationOf(req).id },
  parse: (req) => parseStartBody(Buffer.isBuffer(req.body) ? req.body : undefined),
  handle: (body, req, { starts }) => starts.start(automationOf(req), body),
});

@Controller()
export class AutomationAddressController {
  private readonly starts: OpenDoor<AddressServices>;

  constructor(doors: Doors, starts: StartService) {
    this.starts = doors.open(AUTOMATION_ADDRESS_DOOR, { starts });
  }

  @DoorRoute(AUTOMATION_ADDRESS_DOOR)
  start(@Req() req: DoorRequest, @Res() res: Response) {
    return this.starts.serve(req, res);
  }
}
