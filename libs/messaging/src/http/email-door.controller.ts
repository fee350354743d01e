import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Reference, tooLargeRefusal, WEBHOOK_BODY_LIMIT } from '@app/edge';
import { EmailDoorService } from '../email-door.service';

/** POST /api/webhooks/email: one webhook for the whole deployment, signed with Standard Webhooks. */
@Controller('api/webhooks/email')
export class EmailDoorController {
  constructor(private readonly door: EmailDoorService) {}

  @Post()
  @HttpCode(200)
  @Reference({
    operationId: 'postEmailWebhook',
    summary: "The email provider's webhook",
    description: [
      "One address for the whole deployment, set up by whoever runs it in the email provider's dashboard, " +
        'signed with Standard Webhooks ' +
        ('(webhook-id, webhook-timestamp and webhook-signature headers) under EMAIL_WEBHOOK_SECRET; off ' +
          '(not_found) while that is unset.'),
      'A delivery, open, click, bounce or complaint sets the status of the sent message it names; a received ' +
        "email becomes a reply on the person's timeline. " +
        (`A redelivery answers replayed and writes nothing. The body is read as sent, up to ` +
          `${WEBHOOK_BODY_LIMIT / 1024} KB.`),
    ].join('\n\n'),
    tag: 'doors',
    caller: 'anyone',
    body: {
      schema: {
        type: 'object',
        additionalProperties: {},
        description: "The provider's webhook event exactly as it sends it, signed.",
      },
    },
    answers: {
      200: {
        description: 'What the door did with the event.',
        schema: 'EmailDoorAnswer',
        example: { ok: true, status: 'recorded' },
      },
    },
    refuses: ['not_found', 'invalid_signature', 'too_large'],
    examples: {
      not_found: 'The email door is off: set EMAIL_WEBHOOK_SECRET to turn it on.',
      invalid_signature:
        "Sign the post with the email door's whsec_ secret and send the body unchanged with its webhook-id, " +
        'webhook-timestamp and webhook-signature headers.',
      too_large: tooLargeRefusal(WEBHOOK_BODY_LIMIT).message,
    },
  })
  receive(@Req() req: Request) {
    return this.door.receive(req.body as Buffer, req.headers);
  }
}
