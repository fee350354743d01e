// Messaging's part of a person's data on request: every email sent to them or received from
// them, with subject, bodies and delivery status, and their opt-outs and undeliverable addresses. A send still
// queued finds its message gone and stops. A broadcast's recipient row stays, naming no one (a random id in
// place of the person's), so its counts hold: skipped 'erased' when not reached yet.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, paged, type PersonDataParticipant, type PersonErasure } from '@app/platform';

const EXPORT_PAGE = 500;

@Injectable()
export class MessagingDataParticipant implements PersonDataParticipant {
  readonly name = 'messaging';
  readonly tables = ['messages', 'email_standings', 'broadcast_recipients'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds }: PersonErasure): Promise<ErasedCounts> {
    const [, messages]: [unknown[], number] = await m.query(
      `DELETE FROM messages WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      [workspaceId, personIds],
    );
    const [, standings]: [unknown[], number] = await m.query(
      `DELETE FROM email_standings WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      [workspaceId, personIds],
    );
    const [, recipients]: [unknown[], number] = await m.query(
      `UPDATE broadcast_recipients SET person_id = 'erased_' || md5(random()::text || clock_timestamp()::text),
          message_id = NULL, provider_id = NULL, claimed_by = NULL, claimed_at = NULL, updated_at = now(),
          reason = CASE WHEN state = 'queued' THEN 'erased' ELSE reason END,
          state = CASE WHEN state = 'queued' THEN 'skipped' ELSE state END
        WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      [workspaceId, personIds],
    );
    return { messages, email_standings: standings, broadcast_recipients: recipients };
  }

  /** Oldest first, a page at a time by (at, id). */
  exportSections(workspaceId: string, personIds: string[]) {
    const page = (after: { id: string; at: string } | null): Promise<Array<{ id: string; at: string }>> =>
      this.dataSource.query(
        `SELECT id, direction, at, address, subject, text, html, template_id AS "templateId",
          send_state AS "sendState", send_error AS "sendError",
                provider_id AS "providerId", status, status_at AS "statusAt"
           FROM messages
          WHERE workspace_id = $1 AND person_id = ANY($2::text[]) AND ($3::timestamptz IS NULL
            OR (at, id) > ($3::timestamptz, $4::text))
          ORDER BY at, id LIMIT ${EXPORT_PAGE}`,
        [workspaceId, personIds, after?.at ?? null, after?.id ?? ''],
      );
    const dataSource = this.dataSource;
    // A few rows a person at most: one read.
    async function* standings(): AsyncIterable<unknown> {
      yield* (await dataSource.query(
        `SELECT kind, at, via, address, message_id AS "messageId" FROM email_standings
          WHERE workspace_id = $1 AND person_id = ANY($2::text[]) ORDER BY at, id`,
        [workspaceId, personIds],
      )) as unknown[];
    }
    // The broadcasts that reached or skipped them, a row each.
    async function* broadcasts(): AsyncIterable<unknown> {
      yield* (await dataSource.query(
        `SELECT broadcast_id AS "broadcastId", state, reason, message_id AS "messageId", sent_at AS "sentAt"
           FROM broadcast_recipients WHERE workspace_id = $1 AND person_id = ANY($2::text[])
          ORDER BY updated_at, broadcast_id`,
        [workspaceId, personIds],
      )) as unknown[];
    }
    return { messages: () => paged(page, EXPORT_PAGE), emailStandings: standings, broadcasts };
  }
}
