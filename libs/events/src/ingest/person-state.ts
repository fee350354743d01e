// A person as the ingest transaction sees and changes it; written back once at the end.
import type { PersonRow, PersonSnapshot, Stage } from '@app/people';

export class PersonState {
  dirty = false;

  constructor(
    public row: PersonRow,
    public readonly isNew: boolean,
  ) {}

  snapshot(): PersonSnapshot {
    const r = this.row;
    return {
      id: r.id,
      createdAt: new Date(r.created_at),
      stage: (r.stage as Stage) ?? null,
      stageChangedAt: r.stage_changed_at ? new Date(r.stage_changed_at) : null,
      firstTouch: r.first_touch,
      firstTouchAt: r.first_touch_at ? new Date(r.first_touch_at) : null,
      purchases: r.purchases,
      engagedAt: r.engaged_at ? new Date(r.engaged_at) : null,
      name: r.name,
      email: r.email,
      os: r.os,
      fields: r.fields ?? {},
    };
  }

  set<K extends keyof PersonRow>(field: K, value: PersonRow[K]): void {
    if (this.row[field] === value) return;
    this.row = { ...this.row, [field]: value };
    this.dirty = true;
  }
}
