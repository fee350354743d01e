// Automations' part of a person's data on request: the runs an automation made for the
// person, with their trigger, properties and log. A run still waiting finds itself gone and stops.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, paged, type PersonDataParticipant, type PersonErasure } from '@app/platform';

const EXPORT_PAGE = 500;

@Injectable()
export class AutomationsDataParticipant implements PersonDataParticipant {
  readonly name = 'automations';
  readonly tables = ['automation_runs'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds }: PersonErasure): Promise<ErasedCounts> {
    const [, runs]: [unknown[], number] = await m.query(
      `DELETE FROM automation_runs WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      [workspaceId, personIds],
    );
    return { automation_runs: runs };
  }

  /** Oldest first, a page at a time by (created_at, id). */
  exportSections(workspaceId: string, personIds: string[]) {
    const page = (after: { id: string; createdAt: string } | null): Promise<Array<{ id: string; createdAt: string }>> =>
      this.dataSource.query(
        `SELECT r.id, a.name AS automation, r.state, r.trigger, r.properties, r.step, r.log,
          r.created_at AS "createdAt", r.finished_at AS "finishedAt"
           FROM automation_runs r LEFT JOIN automations a ON a.workspace_id = r.workspace_id AND a.id = r.automation_id
          WHERE r.workspace_id = $1 AND r.person_id = ANY($2::text[]) AND ($3::timestamptz IS NULL
            OR (r.created_at, r.id) > ($3::timestamptz, $4::text))
          ORDER BY r.created_at, r.id LIMIT ${EXPORT_PAGE}`,
        [workspaceId, personIds, after?.createdAt ?? null, after?.id ?? ''],
      );
    return { automationRuns: () => paged(page, EXPORT_PAGE) };
  }
}
