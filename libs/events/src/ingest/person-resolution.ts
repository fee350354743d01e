// The people of one ingest transaction (docs/rest.md#events): finds or creates the person a post's
// keys name, merges the people two keys name into the older, and keeps every change in memory until
// the unit writes them back with one statement. Each person is a PersonState: as the transaction sees
// and changes it, written back once at the end.
import { IdentifyStatus } from '@app/wire';
import { isoText, leanRecord, newId } from '@app/platform';
import { WorkspaceEntity } from '@app/workspaces';
import {
  firstTouchFrom,
  IdentityKey,
  IdentityRow,
  keyString,
  PeopleRepository,
  PeopleWrite,
  PersonRow,
  personOs,
  planMerge,
  SourceInput,
} from '@app/people';
import type { EntityManager } from 'typeorm';
import type { IngestLog } from './ingest-unit';
import { PersonState } from './person-state';

export type { PersonState } from './person-state';
import type { NamedTouch, TouchKeys } from './touch-keys';
import type { PersonChange } from '../segments/domain/inputs';
import { factsOf } from '../segments/domain/evaluate';
import type { TimelineRow } from '../timeline.repository';

export class PersonResolution {
  private readonly people = new Map<string, PersonState>();
  private readonly keyToPerson = new Map<string, string>();
  private readonly redirect = new Map<string, string>();
  private readonly newIdentities: IdentityRow[] = [];
  /** Survivors of merges here: their rows and the absorbed people's take the survivor's first-touch key. */
  private readonly survivors = new Set<string>();

  constructor(
    private readonly m: EntityManager,
    private readonly workspace: WorkspaceEntity,
    private readonly peopleRepo: PeopleRepository,
    private readonly log: IngestLog,
    private readonly now: Date,
    private readonly touches: TouchKeys,
  ) {}

  /** The identities and people the post's keys already name (read and locked by the unit). */
  seed(found: { identities: IdentityRow[]; people: PersonRow[] }): void {
    for (const identity of found.identities)
      this.keyToPerson.set(`${identity.kind}:${identity.value}`, identity.person_id);
    for (const row of found.people)
      this.people.set(row.id, new PersonState(row, false, this.touches.of(row.first_touch).touch));
  }

  /** Finds or creates the person the keys name; keys of two people merge them into the older. */
  async resolve(keys: IdentityKey[]): Promise<{ person: PersonState; status: IdentifyStatus }> {
    const ids = [...new Set(keys.map((k) => this.keyToPerson.get(keyString(k))).filter((id): id is string => !!id))];
    let person: PersonState;
    let status: IdentifyStatus = 'linked';
    if (ids.length === 0) {
      person = this.create(keys);
      status = 'created';
    } else if (ids.length === 1) {
      person = this.people.get(ids[0])!;
    } else {
      person = await this.merge(ids.map((id) => this.people.get(id)!));
      status = 'merged';
    }
    for (const key of keys) {
      const k = keyString(key);
      if (this.keyToPerson.get(k) === person.row.id) continue;
      this.keyToPerson.set(k, person.row.id);
      this.newIdentities.push({ kind: key.kind, value: key.value, person_id: person.row.id });
      if (key.kind === 'email' && !person.row.email) {
        if (!person.isNew) this.log.fieldChanged(person, 'email', null, key.value);
        person.set('email', key.value);
      }
    }
    return { person, status };
  }

  /** The person the keys already name, if any: makes no one (an unsubscribe of someone unknown). */
  known(keys: IdentityKey[]): PersonState | undefined {
    for (const key of keys) {
      const id = this.keyToPerson.get(keyString(key));
      if (id) return this.people.get(this.follow(id));
    }
    return undefined;
  }

  /** Every person the post named, as they now are (a merge's absorbed as their survivor): whom segments recompute. */
  namedPeople(): string[] {
    return [...new Set([...this.people.keys()].map((id) => this.follow(id)))];
  }

  /** What the post changed of each person it named (`rows` the timeline rows it adds): what segments read. */
  changes(rows: ReadonlyArray<TimelineRow>): Map<string, PersonChange> {
    const changes = new Map<string, { whole: boolean; columns: Set<string>; rows: Set<string> } & PersonChange>();
    const rowsOf = new Map<string, TimelineRow[]>();
    for (const row of rows) {
      const id = this.follow(row.person_id);
      rowsOf.set(id, [...(rowsOf.get(id) ?? []), row]);
    }
    for (const p of this.people.values()) {
      const id = this.follow(p.row.id);
      const change = changes.get(id) ?? { whole: false, columns: new Set<string>(), rows: new Set<string>() };
      change.whole ||= p.isNew || this.survivors.has(id) || id !== p.row.id;
      for (const column of p.changed) change.columns.add(column);
      for (const row of rowsOf.get(id) ?? []) change.rows.add(row.type);
      // Someone this post made, and no one joined them: every fact of theirs is here.
      if (p.isNew && id === p.row.id && !this.survivors.has(id)) change.facts = factsOf(p.row, rowsOf.get(id) ?? []);
      changes.set(id, change);
    }
    return changes;
  }

  /** The person an id now is: itself, or the survivor of the merges that absorbed it. */
  follow(id: string): string {
    let current = id;
    while (this.redirect.has(current)) current = this.redirect.get(current)!;
    return current;
  }

  /** The first-touch key of the person an id now is (each row of the post carries it). */
  touchOf(id: string): string {
    const person = this.people.get(this.follow(id))!;
    return (person.touch ??= this.touches.of(person.row.first_touch).touch);
  }

  /**
   * The people whose rows already written must take a new key: their first touch was set or changed
   * here, or a merge moved rows onto them. Rare: a first touch is set once.
   */
  retouched(): Array<{ person_id: string; touch: string }> {
    const live = [...this.people.values()].filter((p) => !this.redirect.has(p.row.id) && !p.isNew);
    return live.flatMap((p) => {
      const touch = this.touchOf(p.row.id);
      return touch !== p.loadedTouch || this.survivors.has(p.row.id) ? [{ person_id: p.row.id, touch }] : [];
    });
  }

  /** The keys of the post's people that event_touches may lack, as far as this process knows. */
  unnamedTouches(): NamedTouch[] {
    const found = new Map<string, NamedTouch>();
    for (const p of this.people.values()) {
      if (this.redirect.has(p.row.id)) continue;
      const touch = this.touches.of(p.row.first_touch);
      if (this.touches.mayLack(this.workspace.id, touch)) found.set(touch.touch, touch);
    }
    return [...found.values()];
  }

  /** What to write back: new and changed people (the absorbed are written by the merge), new identities. */
  written(): PeopleWrite {
    const live = [...this.people.values()].filter((p) => !this.redirect.has(p.row.id));
    return {
      newPeople: live
        .filter((p) => p.isNew)
        .map((p) => leanRecord({ ...p.row, last_seen_at: p.row.last_seen_at ?? p.row.created_at }, 'workspace_id')),
      changedPeople: live
        .filter((p) => !p.isNew && p.dirty)
        .map((p) => ({ ...leanRecord(p.row), ...(p.redated ? { first_seen: isoText(p.row.created_at) } : {}) })),
      identities: this.newIdentities.map((i) => this.identityRow(i)),
    };
  }

  /**
   * A new identity as written: its person followed through merges; a new person's created_at with it (the write reads
   * anyone else's).
   */
  private identityRow(identity: IdentityRow): IdentityRow {
    const person = this.people.get(this.follow(identity.person_id))!;
    const row: IdentityRow = { ...identity, person_id: person.row.id };
    if (person.isNew || person.redated) row.person_created_at = isoText(person.row.created_at);
    return row;
  }

  /**
   * A person's first seen is their earliest event: an event that happened before it (an import, an old occurred_at)
   * moves it back (docs/decisions.md#history-starts-no-automation).
   */
  seen(person: PersonState, occurredAt: Date): void {
    person.seenAt(occurredAt);
    if (occurredAt.getTime() >= new Date(person.row.created_at).getTime()) return;
    person.set('created_at', occurredAt);
    if (!person.isNew) person.redated = true;
  }

  /** A post's source: the person's os (a change fires field_changed) and, once, their first touch. */
  touch(person: PersonState, source: SourceInput | undefined): void {
    if (!source) return;
    const os = personOs(source.os);
    if (os && os !== person.row.os) {
      if (!person.isNew || person.row.os !== null) this.log.fieldChanged(person, 'os', person.row.os, os);
      person.set('os', os);
    }
    if (!person.row.first_touch) {
      const firstTouch = firstTouchFrom(source);
      if (firstTouch) {
        person.set('first_touch', firstTouch as unknown as Record<string, unknown>);
        person.set('first_touch_at', this.now);
      }
    }
  }

  engage(person: PersonState): void {
    if (!person.row.engaged_at) person.set('engaged_at', this.now);
  }

  private create(keys: IdentityKey[]): PersonState {
    const id = newId('per');
    const state = new PersonState(
      {
        workspace_id: this.workspace.id,
        id,
        name: null,
        email: keys.find((k) => k.kind === 'email')?.value ?? null,
        stage: null,
        stage_changed_at: null,
        purchases: 0,
        engaged_at: null,
        os: null,
        fields: {},
        first_touch: null,
        first_touch_at: null,
        created_at: this.now,
        last_seen_at: null,
        revenue: '0',
      },
      true,
      '0',
    );
    this.people.set(id, state);
    return state;
  }

  private async merge(states: PersonState[]): Promise<PersonState> {
    const plan = planMerge(states.map((s) => s.snapshot()));
    const survivor = this.people.get(plan.survivorId)!;
    survivor.set('stage', plan.stage);
    survivor.set('stage_changed_at', plan.stageChangedAt);
    survivor.set('first_touch', plan.firstTouch);
    survivor.set('first_touch_at', plan.firstTouchAt);
    survivor.set('purchases', plan.purchases);
    survivor.set('revenue', plan.revenue);
    survivor.set('last_seen_at', plan.lastSeenAt);
    survivor.set('engaged_at', plan.engagedAt);
    survivor.set('name', plan.name);
    survivor.set('email', plan.email);
    survivor.set('os', plan.os);
    survivor.set('fields', plan.fields);
    // New people may already own rows written during this transaction (a subscription), so all move.
    await this.peopleRepo.moveOnto(this.m, this.workspace.id, survivor.row.id, plan.absorbedIds);
    for (const id of plan.absorbedIds) this.redirect.set(id, survivor.row.id);
    this.survivors.add(survivor.row.id);
    for (const [key, id] of this.keyToPerson)
      if (plan.absorbedIds.includes(id)) this.keyToPerson.set(key, survivor.row.id);
    this.log.timelineRow(survivor.row.id, 'merged', this.now, { properties: { absorbed: plan.absorbedIds } });
    return survivor;
  }
}
