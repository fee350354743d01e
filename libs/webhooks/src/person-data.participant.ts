// Webhooks' part of a person's data on request: the deliveries whose bodies named the person
// (their record, email or name). Erasure keeps each such delivery as the record that something was
// sent, with its body redacted and the receiver's answers to it cleared; one not yet sent is not sent.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type ErasedCounts, jsonNamesAny, paged, type PersonDataParticipant, type PersonErasure } from '@app/platform';

const EXPORT_PAGE = 500;

/** Whether a delivery's body is one an erasure redacted: nothing is left to send again. */
export function isRedactedBody(body: string): boolean {
  try {
    return (JSON.parse(body) as { redacted?: unknown }).redacted === true;
  } catch {
    return false;
  }
}

/** A redacted delivery's body: its id and type stay, so the delivery log still reads. */
const REDACTED_BODY = `jsonb_build_object('id', d.id, 'type', d.type, 'redacted', true)::text`;

/** The deliveries of workspace $1 whose body names one of $2 (record ids, emails, names). */
const NAMING = `d.workspace_id = $1 AND d.body LIKE '{%' AND ${jsonNamesAny('d.body::jsonb', '$2::text[]')}`;

@Injectable()
export class WebhooksDataParticipant implements PersonDataParticipant {
  readonly name = 'webhooks';
  readonly tables = ['deliveries', 'delivery_attempts'] as const;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async erase(m: EntityManager, { workspaceId, personIds, values }: PersonErasure): Promise<ErasedCounts> {
    const [redacted]: [Array<{ id: string }>, number] = await m.query(
      `UPDATE deliveries d SET body = ${REDACTED_BODY},
              state = CASE WHEN d.state = 'pending' THEN 'failed' ELSE d.state END,
              next_attempt_at = CASE WHEN d.state = 'pending' THEN NULL ELSE d.next_attempt_at END
        WHERE ${NAMING} RETURNING d.id`,
      [workspaceId, [...personIds, ...values]],
    );
    const [, attempts]: [unknown[], number] = await m.query(
      `UPDATE delivery_attempts SET body_excerpt = NULL, error = NULL
        WHERE workspace_id = $1 AND delivery_id = ANY($2::text[]) AND (body_excerpt IS NOT NULL OR error IS NOT NULL)`,
      [workspaceId, redacted.map((r) => r.id)],
    );
    return { deliveries: redacted.length, delivery_attempts: attempts };
  }

  /** The deliveries whose body names the person's record, oldest first, with the body as sent. */
  exportSections(workspaceId: string, personIds: string[]) {
    const page = (after: { id: string; createdAt: string } | null): Promise<Array<{ id: string; createdAt: string }>> =>
      this.dataSource.query(
        `SELECT d.id, d.type, e.url AS "endpointUrl", d.state, d.attempts, d.created_at AS "createdAt",
          d.body::jsonb AS body
           FROM deliveries d LEFT JOIN webhook_endpoints e ON e.workspace_id = d.workspace_id AND e.id = d.endpoint_id
          WHERE ${NAMING} AND ($3::timestamptz IS NULL OR (d.created_at, d.id) > ($3::timestamptz, $4::text))
          ORDER BY d.created_at, d.id LIMIT ${EXPORT_PAGE}`,
        [workspaceId, personIds, after?.createdAt ?? null, after?.id ?? ''],
      );
    return { deliveries: () => paged(page, EXPORT_PAGE) };
  }
}
