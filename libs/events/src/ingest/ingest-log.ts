// What one ingest transaction writes besides people: timeline rows, happenings, seen event names and
// idempotency answers, gathered while the unit's commands apply and written once by its flush.
import { Happening, happening, TriggerData } from '@app/outbox';
import { isoText, newId } from '@app/platform';
import type { StoredAnswer, TimelineRow } from '../timeline.repository';
import type { PersonState } from './person-state';

/** What one ingest transaction writes besides people (IngestUnit). */
export class IngestLog {
  readonly rows: Array<TimelineRow & { touch?: string }> = [];
  readonly happenings: Happening[] = [];
  readonly names = new Set<string>();
  readonly answers: StoredAnswer[] = [];
  /** The command applying now is history: its happenings carry historical true in each trigger's data. */
  historical = false;

  constructor(
    private readonly workspaceId: string,
    private readonly now: Date,
  ) {}

  timelineRow(personId: string, type: string, at: Date, extra: Partial<TimelineRow>): TimelineRow {
    const row: TimelineRow = {
      workspace_id: this.workspaceId,
      id: newId('evt'),
      occurred_at: isoText(at),
      person_id: personId,
      type,
      value: null,
      properties: null,
      detail: null,
      source: null,
      expires_at: null,
      ...extra,
    };
    this.rows.push(row);
    return row;
  }

  happen(personId: string, data: TriggerData): void {
    if (this.historical) for (const trigger in data) data[trigger] = { ...data[trigger], historical: true };
    this.happenings.push(happening(this.workspaceId, personId, this.now, data));
  }

  fieldChanged(person: PersonState, field: string, from: unknown, to: unknown): void {
    this.happen(person.row.id, { field_changed: { field, from, to } });
  }
}

/**
 * The event data of a timeline row's happening (docs/webhooks.md#triggers-and-bodies); the builder is the outbox's
 * happening().
 */
export function eventData(row: {
  id: string;
  type: string;
  occurred_at: string;
  value: number | null;
  properties: Record<string, unknown> | null;
}) {
  return {
    event: row.type,
    id: row.id,
    occurred_at: row.occurred_at,
    ...(row.value !== null ? { value: row.value } : {}),
    ...(row.properties ? { properties: row.properties } : {}),
  };
}
