// Events' part of a person's data on request: the timeline (events, notes, stage changes,
// merges, emails in and out as rows), the idempotency answers that name the person's record and their
// segment memberships.
// Charts count the timeline, so an erased person's rows stop counting with the same delete. The
// first-touch dictionary (event_touches) is shared by everyone with the same touch: a source, medium or
// campaign naming the person is rewritten there, not removed
// (docs/decisions.md#erasure-leaves-no-trace-and-no-way-around).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, paged, type PersonDataParticipant, type PersonErasure } from '@app/platform';
import { dropMembers } from './segments/membership.repository';

/** What a first-touch field naming an erased person reads as, in charts broken down by it. */
const ERASED_TOUCH = '(erased)';

/** A value this long is looked for inside a first-touch field; a shorter one (a short id) only as the whole field. */
const INSIDE_FROM = 6;

/**
 * SQL: the first-touch field `field` names one of the values $2 (text[], lower-cased): it is one of them,
 * or holds one of the longer ones ($3, text[] of LIKE patterns) inside it (a campaign carrying an email).
 */
const touchNames = (field: string) => `(lower(${field}) = ANY($2::text[]) OR lower(${field}) LIKE ANY($3::text[]))`;

/** Timeline rows read per page of an export. */
const EXPORT_PAGE = 1_000;

interface ExportedRow {
  id: string;
  occurredAt: string;
}

@Injectable()
export class EventsDataParticipant implements PersonDataParticipant {
  readonly name = 'events';
  readonly tables = ['events', 'idempotency_keys', 'event_touches', 'segment_members', 'segment_counts'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds, values }: PersonErasure): Promise<ErasedCounts> {
    const args = [workspaceId, personIds];
    const [, events]: [unknown[], number] = await m.query(
      `DELETE FROM events WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
      args,
    );
    const [, answers]: [unknown[], number] = await m.query(
      `DELETE FROM idempotency_keys WHERE workspace_id = $1 AND record_id = ANY($2::text[])`,
      args,
    );
    // The person leaves their segments quietly (no segment_left), each count lowered with them.
    const members = await dropMembers(m, workspaceId, personIds);
    return {
      events,
      idempotency_keys: answers,
      event_touches: await this.eraseTouches(m, workspaceId, values),
      segment_members: members,
      segment_counts: 0,
    };
  }

  /**
   * Rewrites each first-touch field that names the person to ERASED_TOUCH. The row stays under its key:
   * another person's rows may carry the same key, and a later post or a rollup rebuild naming the key
   * again finds it named (ON CONFLICT DO NOTHING) and leaves it rewritten.
   */
  private async eraseTouches(m: EntityManager, workspaceId: string, values: string[]): Promise<number> {
    const lower = [...new Set(values.map((v) => v.toLowerCase()))];
    const inside = lower
      .filter((v) => v.length >= INSIDE_FROM)
      .map((v) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const field = (name: string) => `${name} = CASE WHEN ${touchNames(name)} THEN $4 ELSE ${name} END`;
    const [, rows]: [unknown[], number] = await m.query(
      `UPDATE event_touches SET ${field('source')}, ${field('medium')}, ${field('campaign')}
        WHERE workspace_id = $1 AND (${touchNames('source')} OR ${touchNames('medium')} OR ${touchNames('campaign')})`,
      [workspaceId, lower, inside, ERASED_TOUCH],
    );
    return rows;
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
