// People's part of a person's data on request: their record rows (the person and everyone
// merged into them), identities and subscriptions with their consent records.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, type PersonDataParticipant, type PersonErasure, rowsOf } from '@app/platform';

@Injectable()
export class PeopleDataParticipant implements PersonDataParticipant {
  readonly name = 'people';
  readonly tables = ['people', 'identities', 'subscriptions'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds }: PersonErasure): Promise<ErasedCounts> {
    const args = [workspaceId, personIds];
    const count = async (sql: string) => ((await m.query(sql, args)) as [unknown[], number])[1];
    return {
      subscriptions: await count(`DELETE FROM subscriptions WHERE workspace_id = $1 AND person_id = ANY($2::text[])`),
      identities: await count(`DELETE FROM identities WHERE workspace_id = $1 AND person_id = ANY($2::text[])`),
      people: await count(`DELETE FROM people WHERE workspace_id = $1 AND id = ANY($2::text[])`),
    };
  }

  exportSections(workspaceId: string, personIds: string[]) {
    const read = (sql: string) => () => rowsOf(this.dataSource.query(sql, [workspaceId, personIds]));
    return {
      identities: read(`SELECT kind, value, person_id AS "personId", created_at AS "createdAt" FROM identities
                         WHERE workspace_id = $1 AND person_id = ANY($2::text[]) ORDER BY created_at, kind, value`),
      subscriptions: read(
        `SELECT l.address AS list, l.name AS "listName", s.status, s.consent_text AS "consentText", s.consent,
          s.consent_ip AS "consentIp",
                s.granted_at AS "grantedAt", s.source_label AS "sourceLabel", s.source, s.created_at AS "createdAt",
                  s.unsubscribed_at AS "unsubscribedAt"
           FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
          WHERE s.workspace_id = $1 AND s.person_id = ANY($2::text[]) ORDER BY s.granted_at`,
      ),
    };
  }
}
