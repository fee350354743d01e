// People's part of a person's data on request: their record rows (the person and everyone
// merged into them), identities and subscriptions with their consent records.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, type PersonDataParticipant, type PersonErasure, rowsOf } from '@app/platform';

@Injectable()
export class PeopleDataParticipant implements PersonDataParticipant {
  readonly name = 'people';
  readonly tables = ['people', 'identities', 'subscriptions', 'earlier_consents'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds }: PersonErasure): Promise<ErasedCounts> {
    const args = [workspaceId, personIds];
    const count = async (sql: string) => ((await m.query(sql, args)) as [unknown[], number])[1];
    return {
      subscriptions: await count(`DELETE FROM subscriptions WHERE workspace_id = $1 AND person_id = ANY($2::text[])`),
      earlier_consents: await count(
        `DELETE FROM earlier_consents WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      ),
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
                  s.withdrawn_at AS "withdrawnAt", s.withdrawn_via AS "withdrawnVia", s.withdrawn_ip AS "withdrawnIp"
           FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
          WHERE s.workspace_id = $1 AND s.person_id = ANY($2::text[]) ORDER BY s.granted_at`,
      ),
      // Consents a later subscribe to the same list replaced, each with its withdrawal.
      earlierConsents: read(
        `SELECT l.address AS list, l.name AS "listName", e.consent_text AS "consentText", e.consent,
                e.consent_ip AS "consentIp", e.granted_at AS "grantedAt", e.source_label AS "sourceLabel", e.source,
                e.created_at AS "createdAt", e.withdrawn_at AS "withdrawnAt", e.withdrawn_via AS "withdrawnVia",
                e.withdrawn_ip AS "withdrawnIp", e.replaced_at AS "replacedAt"
           FROM earlier_consents e JOIN lists l ON l.workspace_id = e.workspace_id AND l.id = e.list_id
          WHERE e.workspace_id = $1 AND e.person_id = ANY($2::text[]) ORDER BY e.granted_at`,
      ),
    };
  }
}
