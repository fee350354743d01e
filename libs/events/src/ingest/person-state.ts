// A person as one ingest transaction sees and changes them (PersonResolution keeps one per person named).
import {
  addToRevenue,
  nextLastSeen,
  PersonRow,
  PersonSnapshot,
  PURCHASE_EVENTS,
  revenueChange,
  Stage,
} from '@app/people';

/** A person as the ingest transaction sees and changes it; written back once at the end. */
export class PersonState {
  dirty = false;
  /** The columns this post changed. */
  readonly changed = new Set<string>();
  /** An existing person whose first seen (created_at) an earlier event moved back: written as first_seen. */
  redated = false;
  /** The first-touch key as the post leaves the person, once asked (at the write, after every change). */
  touch?: string;

  constructor(
    public readonly row: PersonRow,
    public readonly isNew: boolean,
    /** The first-touch key of the person's rows already written (as loaded; '0' for a new person). */
    public readonly loadedTouch: string,
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
      revenue: r.revenue,
      lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at) : null,
      engagedAt: r.engaged_at ? new Date(r.engaged_at) : null,
      name: r.name,
      email: r.email,
      os: r.os,
      fields: r.fields ?? {},
    };
  }

  /** Something they did at `at`: last seen moves on, by a minute at least (people's domain/activity.ts). */
  seenAt(at: Date): void {
    const last = this.row.last_seen_at;
    const next = last ? nextLastSeen(new Date(last), at) : at;
    if (next) this.set('last_seen_at', next);
  }

  /** An event of this kind and value: a purchase counts, and what they paid changes by a payment or a refund. */
  paid(type: string, value: number | null | undefined): void {
    if (PURCHASE_EVENTS.has(type)) this.set('purchases', this.row.purchases + 1);
    const change = revenueChange(type, value);
    if (change !== 0) this.set('revenue', addToRevenue(this.row.revenue, change));
  }

  /** Changes the row in place: it is this transaction's own (made here, or read by its load). */
  set<K extends keyof PersonRow>(field: K, value: PersonRow[K]): void {
    if (this.row[field] === value) return;
    this.row[field] = value;
    this.dirty = true;
    this.changed.add(field);
  }
}
