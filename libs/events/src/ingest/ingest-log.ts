// What one ingest transaction writes besides people: timeline rows, happenings, seen event names and
// idempotency answers, gathered while commands apply and written once by the unit's flush.
import { Happening, happening, TriggerData } from '@app/outbox';
import { newId } from '@app/platform';
import type { StoredAnswer, TimelineRow } from '../timeline.repository';
import type { PersonState } from './person-state';

export class IngestLog {
  readonly rows: TimelineRow[] = [];
  readonly happenings: Happening[] = [];
  readonly names = new Set<string>();
  readonly answers: StoredAnswer[] = [];

  constructor(
    private readonly workspaceId: string,
    private readonly now: Date,
  ) {}

  timelineRow(personId: string, type: string, at: Date, extra: Partial<TimelineRow>): TimelineRow {
    const row: TimelineRow = {
      workspace_id: this.workspaceId,
      id: newId('evt'),
      occurred_at: at.toISOString(),
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
    this.happenings.push(happening(this.workspaceId, personId, this.now, data));
  }

  fieldChanged(person: PersonState, field: string, from: unknown, to: unknown): void {
    this.happen(person.row.id, { field_changed: { field, from, to } });
  }
}
