// A page of people's messages in one statement, for the person field of the admin API.
import { Inject, Injectable } from '@nestjs/common';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import { personJoin } from '@app/people';
import type { MessageRead } from './messages.repository';

@Injectable()
export class PersonMessagesRepository {
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /** Each person's latest `limit` messages, newest first, on the messages_person index. */
  latestOf(workspaceId: string, personIds: readonly string[], limit: number): Promise<MessageRead[]> {
    return this.reads.query(
      `SELECT m.id, m.direction, m.at, m.subject, m.text, m.provider_id, m.status, m.address, m.person_id,
              p.name AS person_name, p.email AS person_email
         FROM unnest($2::text[]) AS who(id)
         ${personJoin('p', '$1', 'who.id')}
         CROSS JOIN LATERAL (
           SELECT * FROM messages WHERE workspace_id = $1 AND person_id = who.id ORDER BY at DESC, id DESC
             LIMIT $3) AS m`,
      [workspaceId, personIds, limit],
    );
  }

  /** Messages by id (a timeline's email rows share their message's id), with their person. */
  byIds(workspaceId: string, ids: readonly string[]): Promise<MessageRead[]> {
    return this.reads.query(
      `SELECT m.id, m.direction, m.at, m.subject, m.text, m.provider_id, m.status, m.address, m.person_id,
              p.name AS person_name, p.email AS person_email
         FROM messages m
         ${personJoin('p', '$1', 'm.person_id', 'LEFT JOIN')}
        WHERE m.workspace_id = $1 AND m.id = ANY($2::text[])`,
      [workspaceId, ids],
    );
  }
}
