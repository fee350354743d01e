// POST /api/webhooks/{payment|auth_a|auth_b|hosting}/{token} (docs/rest.md#third-party-doors). The body
// arrives as raw bytes (edge's body parsers, 256 KB cap); each kind is its own route so the automation
// address beside them (/api/webhooks/automation/…) stays its own.
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Reference, RouteReference, tooLargeRefusal, WEBHOOK_BODY_LIMIT } from '@app/edge';
import { DoorIntakeService } from '../door-intake.service';

/** What each door's reference shares: the token, the answers, the refusals (door-intake.service.ts). */
function doorReference(
  reference: Pick<RouteReference, 'operationId' | 'summary' | 'body'> & { sender: string; proof: string },
): RouteReference {
  const { sender, proof, ...rest } = reference;
  return {
    ...rest,
    description: [
      `Where ${sender} posts, at the address the door showed when it was connected. ${proof} The signature is ` +
        `checked over the exact body before anything reads it.`,
      'The event becomes the same items the events endpoint takes (an event it does not map is ignored); a ' +
        'redelivery of an event already answered answers the same and writes nothing. ' +
        `The body is read as sent, up to ${WEBHOOK_BODY_LIMIT / 1024} KB.`,
    ].join('\n\n'),
    tag: 'doors',
    caller: 'anyone',
    params: {
      token: {
        description:
          "The connection's token, made when the door was connected: the address names the workspace and the door.",
      },
    },
    answers: {
      200: {
        description: 'Recorded, or ignored (an event this door does not map).',
        schema: 'DoorAnswer',
        example: { ok: true, status: 'recorded' },
      },
    },
    refuses: ['not_found', 'invalid_signature', 'too_large', 'invalid_email'],
    examples: {
      not_found: 'No door has this address: connect the door again and paste the address it answers.',
      too_large: tooLargeRefusal(WEBHOOK_BODY_LIMIT).message,
    },
  };
}

/** A third party's own payload: verified by its signature, then read by the door's provider file. */
const theirs = (who: string) => ({
  schema: {
    type: 'object',
    additionalProperties: {},
    description: `The webhook event exactly as ${who} sends it, signed.`,
  },
});

@Controller('api/webhooks')
export class DoorsController {
  constructor(private readonly intake: DoorIntakeService) {}

  private receive(kind: string, token: string, req: Request) {
    return this.intake.receive(kind, token, {
      raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
      headers: req.headers,
    });
  }

  @Post('payment/:token')
  @HttpCode(200)
  @Reference(
    doorReference({
      operationId: 'postPaymentWebhook',
      summary: "The payment processor's webhook",
      sender: 'the payment processor (Stripe)',
      proof:
        'Its Stripe-Signature header: HMAC-SHA256 of the timestamp and the body under the signing secret ' +
        'pasted in, within five minutes.',
      body: theirs('the payment processor'),
    }),
  )
  payment(@Param('token') token: string, @Req() req: Request) {
    return this.receive('payment', token, req);
  }

  @Post('auth_a/:token')
  @HttpCode(200)
  @Reference(
    doorReference({
      operationId: 'postAuthAWebhook',
      summary: "An auth provider's webhook, signed with Standard Webhooks",
      sender: 'the auth provider (Clerk)',
      proof:
        'Its Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature, or svix-*) under the ' +
        "signing secret from the provider's dashboard, within five minutes.",
      body: theirs('the auth provider'),
    }),
  )
  authA(@Param('token') token: string, @Req() req: Request) {
    return this.receive('auth_a', token, req);
  }

  @Post('auth_b/:token')
  @HttpCode(200)
  @Reference(
    doorReference({
      operationId: 'postAuthBWebhook',
      summary: "An auth provider's webhook, posted as a signed token",
      sender: 'the auth provider (Kinde)',
      proof:
        "The body is itself an RS256 token, verified against the business's own key set (JWKS) at the domain " +
        'pasted in, issued within five minutes.',
      body: {
        mediaType: 'application/jwt',
        schema: {
          type: 'string',
          description: 'The RS256 token (header.payload.signature) exactly as the provider sends it; any Content-Type.',
        },
      },
    }),
  )
  authB(@Param('token') token: string, @Req() req: Request) {
    return this.receive('auth_b', token, req);
  }

  @Post('hosting/:token')
  @HttpCode(200)
  @Reference(
    doorReference({
      operationId: 'postHostingWebhook',
      summary: "The source-hosting provider's webhook",
      sender: 'the source-hosting provider (GitHub)',
      proof:
        'Its X-Hub-Signature-256 (or X-Hub-Signature) header: an HMAC of the body under the secret its webhook ' +
        'dialog shows once; X-GitHub-Event names the event.',
      body: theirs('the source-hosting provider'),
    }),
  )
  hosting(@Param('token') token: string, @Req() req: Request) {
    return this.receive('hosting', token, req);
  }
}
