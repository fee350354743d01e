// list_messages and send_email: the same messages service as GET and POST /api/v1/messages; a send spends the
// same allowance of the key as a post there does.
import { z } from 'zod';
import { type MessagesService, SEND_LIMIT } from '@app/messaging';
import type { RateLimits } from '@app/platform';
import { defineTool } from './tool';

const messageShape = z.object({
  id: z.string(),
  direction: z.enum(['in', 'out']),
  at: z.string(),
  person: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  subject: z.string(),
  text: z.string(),
  providerId: z.string().optional(),
  status: z.string().optional(),
});

export function messageTools(messages: MessagesService, limits: RateLimits) {
  const listMessages = defineTool({
    name: 'list_messages',
    readOnly: true,
    description:
      'Read emails sent to and received from people, newest first, at most 100 a page, as GET /api/v1/messages ' +
      'does. Filter by since and until (ISO 8601, inclusive), person (record id or email) and direction (in or ' +
      'out). When the answer has nextCursor, pass it back as cursor for the next page.',
    input: {
      since: z.string().optional(),
      until: z.string().optional(),
      person: z.string().optional().describe('A record id or an email address.'),
      direction: z.enum(['in', 'out']).optional(),
      limit: z.number().int().optional().describe('1 to 100; default 50.'),
      cursor: z.string().optional(),
    },
    output: { ok: z.boolean(), messages: z.array(messageShape), nextCursor: z.string().optional() },
    run: async (call, input) => {
      const query = Object.fromEntries(
        Object.entries(input)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      );
      return (await messages.page(call.auth, query)) as {
        ok: boolean;
        messages: z.infer<typeof messageShape>[];
        nextCursor?: string;
      };
    },
  });

  const sendEmail = defineTool({
    name: 'send_email',
    description:
      'Send a one-to-one email to a person, as POST /api/v1/messages does. to is an email address or a record ' +
      'id. Give subject (2 to 200 characters) and body (2 to 20,000 characters, Markdown with {{ person.name ' +
      '}} variables), or template (a template name or id). Only a person who has been in touch (bought, signed ' +
      'up, wrote in, replied or joined a list) can be emailed; anyone else is refused with not_engaged. A person ' +
      'who opted out is refused opted_out, one whose address bounced for good undeliverable.',
    input: {
      to: z.string(),
      subject: z.string().optional(),
      body: z.string().optional(),
      template: z.string().optional(),
    },
    output: { ok: z.boolean(), id: z.string(), providerId: z.string().optional() },
    run: async (call, input) => {
      await limits.consume(SEND_LIMIT, call.auth.keyId, 1, 0, call.auth.workspaceId);
      return messages.send(call.auth, input);
    },
  });

  return [listMessages, sendEmail];
}
