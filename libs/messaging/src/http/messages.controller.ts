// POST and GET /api/v1/messages, GET /api/v1/people/{id or email}/messages (docs/rest.md#messages).
import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Auth, AuthContext, SecretKeyGuard, WorkspacesService } from '@app/workspaces';
import { bySecretKey, door, DoorRequest, DoorRoute, Doors, OpenDoor, Reference } from '@app/edge';
import { LIMITS, readsFromReplica } from '@app/platform';
import { MessagesService, SEND_LIMIT } from '../messages.service';

interface MessagesDoorServices {
  workspaces: WorkspacesService;
  messages: MessagesService;
}

/** POST /api/v1/messages: one message to send, from servers. */
const MESSAGES_DOOR = door({
  method: 'POST',
  path: '/api/v1/messages',
  status: 200,
  // A message body may hold 20,000 characters, which JSON escapes can make six times as many bytes.
  bodyLimit: 256 * 1024,
  authenticate: (req, { workspaces }: MessagesDoorServices) => workspaces.authenticateRequest(req),
  rateLimit: { limit: SEND_LIMIT, key: bySecretKey },
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

  @DoorRoute(MESSAGES_DOOR, {
    operationId: 'postMessages',
    summary: 'Send an email to a person',
    description: [
      'to is an email address or a record id; send subject (2 to 200 characters) and body (2 to 20,000, the ' +
        'markup templates use), or a template by name or id ' +
        ("(a subject or body beside it overrides the template's). Email goes only to a person who bought, " +
          'signed up, wrote in, replied or joined a list, and not to one who opted out (opted_out) or whose ' +
          'address bounced for good (undeliverable).'),
      'The answer waits for the provider when a provider key is set (providerId then says the email left); ' +
        'without one the email is stored, not sent. ' +
        `Counted with the events endpoint: ${LIMITS.server} posts per secret key in ten minutes.`,
    ].join('\n\n'),
    tag: 'messages',
    caller: 'secret key',
    body: {
      schema: 'WireSendMessage',
      example: { to: 'ada@example.com', subject: 'Your order', body: 'Hello Ada, it is on its way.' },
    },
    answers: {
      200: {
        description: 'Sent, or stored when no provider key is set.',
        schema: 'SendSuccess',
        example: { ok: true, id: 'msg_01JD2Q7Z9X4R8T6W3Y5V0N1M2K' },
      },
    },
    refuses: [
      'invalid_key',
      'no_longer_a_member',
      'invalid_subject',
      'missing_body',
      'unknown_template',
      'no_such_person',
      'no_email',
      'not_engaged',
      'opted_out',
      'undeliverable',
    ],
  })
  send(@Req() req: DoorRequest, @Res() res: Response) {
    return this.sends.serve(req, res);
  }

  @Get('api/v1/messages')
  @UseGuards(SecretKeyGuard)
  @Reference({
    operationId: 'getMessages',
    summary: "A page of the workspace's messages",
    description:
      'Sent and received emails, newest first, limit of them a page (1 to 100; 50 unless said), narrowed by ' +
      'since and until (ISO 8601, inclusive), ' +
      ('person (a record id or email address) and direction (in or out). Pass nextCursor back as cursor for the ' +
        'next page; it is absent on the last.'),
    tag: 'messages',
    caller: 'secret key',
    query: 'WireMessageQuery',
    answers: { 200: { description: 'Newest first.', schema: 'MessagePage' } },
    refuses: ['invalid_key', 'no_longer_a_member'],
  })
  page(@Auth() auth: AuthContext, @Query() query: Record<string, unknown>) {
    return readsFromReplica(() => this.messages.page(auth, query));
  }

  @Get('api/v1/people/:who/messages')
  @UseGuards(SecretKeyGuard)
  @Reference({
    operationId: 'getPersonMessages',
    summary: "One person's thread of emails",
    description: 'The emails sent to and received from the person, oldest first: the newest 500 of them.',
    tag: 'messages',
    caller: 'secret key',
    params: { who: { description: "The person's record id (per_…) or email address." } },
    answers: { 200: { description: 'Oldest first.', schema: 'MessageThread' } },
    refuses: ['invalid_key', 'no_longer_a_member', 'no_such_person'],
  })
  thread(@Auth() auth: AuthContext, @Param('who') who: string) {
    return readsFromReplica(() => this.messages.thread(auth, who));
  }
}
