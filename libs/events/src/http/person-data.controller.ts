// GET /api/v1/people/{who}/export and DELETE /api/v1/people/{who} (docs/rest.md#a-persons-data-on-request):
// a person's data on request for servers, with a secret key. The export streams, so a person with 100k
// timeline rows costs the api a page of rows at a time.
import { Controller, Delete, Get, Param, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Auth, AuthContext, SecretKeyGuard } from '@app/workspaces';
import { Reference } from '@app/edge';
import { PersonDataService } from '@app/people';
import { PERSON_LOGGED_AS } from '@app/platform';

@Controller()
export class PersonDataController {
  constructor(private readonly personData: PersonDataService) {}

  @Get('api/v1/people/:who/export')
  @UseGuards(SecretKeyGuard)
  @Reference({
    operationId: 'exportPerson',
    summary: 'Everything held about one person',
    description:
      'One JSON document: the record (with the ids merged into it), identities, subscriptions with the consent ' +
      'words, IP and time, the whole timeline ' +
      ('(events, notes, stage changes), messages with their bodies, automation runs, and the webhook deliveries ' +
        'whose bodies named the person. ') +
      "Streamed, whatever the timeline's length. For a request under GDPR articles 15 and 20.",
    tag: 'people',
    caller: 'secret key',
    params: { who: { description: "The person's record id (per_…) or email address." } },
    answers: { 200: { description: 'The export.', schema: 'PersonExport' } },
    refuses: ['invalid_key', 'no_longer_a_member', 'no_such_person'],
  })
  async export(@Auth() auth: AuthContext, @Param('who') who: string, @Res() res: Response): Promise<void> {
    const parts = await this.personData.exportOf(auth.workspaceId, who);
    // The request line names the record, never the email the path may carry.
    res.locals[PERSON_LOGGED_AS] = String(parts.person.id);
    res
      .status(200)
      .type('application/json')
      .setHeader('Content-Disposition', `attachment; filename="person-export-${String(parts.person.id)}.json"`);
    await pipeline(Readable.from(this.personData.exportText(parts)), res).catch((error: Error) => {
      // Headers are sent: a failure part-way can only end the connection, so the client sees a cut document.
      res.destroy(error);
    });
  }

  @Delete('api/v1/people/:who')
  @UseGuards(SecretKeyGuard)
  @Reference({
    operationId: 'erasePerson',
    summary: 'Erase one person',
    description:
      'Removes the person, everyone merged into them and every row that names them (timeline, consent records, ' +
      'messages, automation runs, idempotency answers, ' +
      ('outbox happenings); deliveries that named them stay as sent with their bodies redacted. Their emails ' +
        'and ids go on the suppression list: a later post naming one ') +
      ('answers {ok: true, status: "suppressed"} and writes nothing. Fires person_erased (its record carries ' +
        "the record id only). The key must be an owner's or admin's. ") +
      'For a request under GDPR article 17.',
    tag: 'people',
    caller: 'secret key',
    params: { who: { description: "The person's record id (per_…) or email address." } },
    answers: {
      200: { description: 'Erased: the erasure log id and the rows removed per table.', schema: 'ErasureAnswer' },
    },
    refuses: ['invalid_key', 'no_longer_a_member', 'forbidden', 'no_such_person'],
  })
  async erase(@Auth() auth: AuthContext, @Param('who') who: string, @Res({ passthrough: true }) res: Response) {
    const { personId, ...erasure } = await this.personData.erase(auth, who);
    res.locals[PERSON_LOGGED_AS] = personId;
    return { ok: true, ...erasure };
  }
}
