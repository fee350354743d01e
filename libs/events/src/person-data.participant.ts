// Events' part of a person's data on request: the timeline (events, notes, stage changes,
// merges, emails in and out as rows) and the idempotency answers that name the person's record.
// Charts count the timeline, so an erased person's rows stop counting with the same delete.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, paged, type PersonDataParticipant, type PersonErasure } from '@app/platform';

/** Timeline rows read per page of an export. */
const EXPORT_PAGE = 1_000;

interface ExportedRow {
  id: string;
  occurredAt: string;
}

@Injectable()
export class EventsDataParticipant implements PersonDataParticipant {
  readonly name = 'events';
  readonly tables = ['events', 'idempotency_keys'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds }: PersonErasure): Promise<ErasedCounts> {
    const args = [workspaceId, personIds];
    const [, events]: [unknown[], number] = await m.query(
      `DELETE FROM events WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      args,
    );
    const [, answers]: [unknown[], number] = await m.query(
      `DELETE FROM idempotency_keys WHERE workspace_id = $1 AND record_id = ANY($2::text[])`,
      args,
    );
    return { events, idempotency_keys: answers };
  }

  /** The whole timeline, oldest first, a page at a time by (occurred_at, id). */
  exportSections(workspaceId: string, personIds: string[]) {
    const page = (after: ExportedRow | null): Promise<ExportedRow[]> =>
      this.dataSource.query(
        `SELECT id, type, occurred_at AS "occurredAt", received_at AS "receivedAt", value::float8 AS value, properties,
          detail, source,
                expires_at AS "expiresAt", person_id AS "personId"
           FROM events
          WHERE workspace_id = $1 AND person_id = ANY($2::text[]) AND ($3::timestamptz IS NULL
            OR (occurred_at, id) > ($3::timestamptz, $4::text))
          ORDER BY occurred_at, id LIMIT ${EXPORT_PAGE}`,
        [workspaceId, personIds, after?.occurredAt ?? null, after?.id ?? ''],
      );
    return { timeline: () => paged(page, EXPORT_PAGE) };
  }
}
