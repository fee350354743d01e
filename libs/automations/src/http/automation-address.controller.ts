// docs/rest.md#an-automations-start-address: POST /api/webhooks/automation/{automation_id}.{signature},
// no key: the signed address is the caller's credential.
import { Controller, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { door, DoorRequest, DoorRoute, Doors, OpenDoor, WEBHOOK_BODY_LIMIT } from '@app/edge';
import { LIMITS } from '@app/platform';
import { AutomationRow } from '../automations.repository';
import { parseStartBody, START_BODY_MAX_BYTES } from '../domain';
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
const AUTOMATION_ADDRESS_DOOR = door({
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

  @DoorRoute(AUTOMATION_ADDRESS_DOOR, {
    operationId: 'postAutomationStart',
    summary: 'Start an automation for one person',
    description: [
      "An automation's own address, shown on its page: {automation_id}.{signature}, signed with the " +
        "deployment's secret, so it can only start that one " +
        ('automation, for one person, in one workspace. No key: the address is the credential; a wrong one ' +
          'answers not_found.'),
      `The body (a JSON object, at most ${START_BODY_MAX_BYTES / 1024} KB) names the person one way: email ` +
        `(finds or adds them, on no list and with no consent), ` +
        ("anon_id or record (only find). properties carries your own facts into the run's steps; only their " +
          "names are written to the run's log."),
      `A paused or draft automation answers paused and writes nothing, so the caller does not retry; an email ` +
        `of an erased person answers suppressed and starts nothing, as every door answers it. Limited ` +
        `to ${LIMITS.automation} posts per address in ten minutes.`,
    ].join('\n\n'),
    tag: 'automations',
    caller: 'anyone',
    params: {
      address: { description: "The automation's id and the address's signature: {automation_id}.{signature}." },
    },
    // The raw bytes are read as JSON whatever the Content-Type (start-body.ts), as a JSON door reads them.
    body: {
      schema: 'WireAutomationStart',
      example: { email: 'ada@example.com', properties: { plan: 'pro' } },
      jsonWhateverType: true,
    },
    answers: {
      200: {
        description: 'Started, or paused (a paused or draft automation is no error), or suppressed (an erased email).',
        schema: 'StartAnswer',
        example: { ok: true, status: 'started' },
      },
    },
    refuses: ['not_found', 'invalid_json', 'no_identity', 'invalid_email', 'no_such_person'],
    examples: {
      not_found: "No automation starts at this address: copy the address again from the automation's page.",
      too_large: 'The body is over 8 KB: send only the person and the properties the steps need.',
      invalid_json: 'Send one JSON object such as {"email": "ada@example.com"}.',
      no_identity: 'Name the person with email, anon_id or record.',
      no_such_person:
        'No person has that anon_id: the address only finds people by anon_id; send their email to add someone new.',
    },
  })
  start(@Req() req: DoorRequest, @Res() res: Response) {
    return this.starts.serve(req, res);
  }
}
