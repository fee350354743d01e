// One transaction of POST /api/v1/events (or a public door): resolves people, applies each command,
// and writes everything back with one statement per table. Rules live in the domain functions.
import { ActionSuccess, Happening, IdentifyStatus, newId, Refusal, WorkspaceEntity } from '@app/core';
import {
  firstTouchFrom,
  isEngagingEvent,
  keyString,
  nextStage,
  PeopleRepository,
  personOs,
  planMerge,
  PURCHASE_EVENTS,
  SourceInput,
  Stage,
  IdentityKey,
  ListRow,
} from '@app/people';
import type { EntityManager } from 'typeorm';
import type { Command, EventCommand, IdentifyCommand, SubscribeCommand, SupportCommand } from '../domain';
import { TimelineRepository, TimelineRow, StoredAnswer } from '../timeline.repository';
import { eventData, happening } from './happenings';
import { IngestRepository } from './ingest.repository';
import { PersonState } from './person-state';

export type Success = ActionSuccess;
export type ItemResult = Success | Refusal;

export class IngestUnit {
  private readonly people = new Map<string, PersonState>();
  private readonly keyToPerson = new Map<string, string>();
  private readonly redirect = new Map<string, string>();
  private readonly newIdentities: Array<{ kind: string; value: string; person_id: string }> = [];
  private readonly rows: TimelineRow[] = [];
  private readonly happenings: Happening[] = [];
  private readonly names = new Set<string>();
  private readonly answers: StoredAnswer[] = [];
  private lists = new Map<string, ListRow>();
  private stored = new Map<string, StoredAnswer>();
  private readonly claimedHere = new Map<string, Success>();

  constructor(
    private readonly m: EntityManager,
    private readonly workspace: WorkspaceEntity,
    private readonly peopleRepo: PeopleRepository,
    private readonly timeline: TimelineRepository,
    private readonly store: IngestRepository,
    private readonly now: Date,
  ) {}

  async prepare(commands: Command[]): Promise<void> {
    const ws = this.workspace.id;
    const keys = new Map<string, IdentityKey>();
    for (const c of commands) for (const k of c.keys) keys.set(keyString(k), k);
    await this.peopleRepo.lockKeys(this.m, ws, [...keys.keys()]);
    const idempotencyKeys = commands.flatMap((c) => (c.kind === 'event' && c.idempotencyKey ? [c.idempotencyKey] : []));
    this.stored = await this.timeline.claimKeys(this.m, ws, [...new Set(idempotencyKeys)]);
    const addresses = commands.flatMap((c) => (c.kind === 'subscribe' ? [c.list] : []));
    this.lists = new Map((await this.peopleRepo.findLists(this.m, ws, [...new Set(addresses)])).map((l) => [l.address, l]));
    const all = [...keys.values()];
    const found = await this.store.load(this.m, ws, all.map((k) => k.kind), all.map((k) => k.value));
    for (const identity of found.identities) this.keyToPerson.set(`${identity.kind}:${identity.value}`, identity.person_id);
    for (const row of found.people) this.people.set(row.id, new PersonState(row, false));
  }

  async apply(command: Command): Promise<ItemResult> {
    switch (command.kind) {
      case 'event':
        return this.applyEvent(command);
      case 'identify':
        return this.applyIdentify(command);
      case 'subscribe':
        return this.applySubscribe(command);
      case 'support':
        return this.applySupport(command);
    }
  }

  async flush(): Promise<void> {
    const ws = this.workspace.id;
    const follow = (id: string) => {
      let current = id;
      while (this.redirect.has(current)) current = this.redirect.get(current)!;
      return current;
    };
    const live = [...this.people.values()].filter((p) => !this.redirect.has(p.row.id));
    await this.store.write(this.m, {
      workspaceId: ws,
      newPeople: live.filter((p) => p.isNew).map((p) => p.row),
      changedPeople: live.filter((p) => !p.isNew && p.dirty).map((p) => p.row),
      identities: this.newIdentities.map((i) => ({ ...i, person_id: follow(i.person_id) })),
      rows: this.rows.map((r) => ({ ...r, person_id: follow(r.person_id) })),
      names: [...this.names],
      answers: this.answers.map((a) => ({ ...a, record_id: a.record_id && follow(a.record_id) })),
      happenings: this.happenings.map((h) => ({ ...h, personId: h.personId && follow(h.personId) })),
    });
  }

  // --- commands ---------------------------------------------------------------------------------

  private async applyEvent(c: EventCommand): Promise<ItemResult> {
    if (c.idempotencyKey) {
      const earlier = this.stored.get(c.idempotencyKey);
      if (earlier) return { ok: true, status: earlier.status, ...(earlier.record_id ? { id: earlier.record_id } : {}) };
      const here = this.claimedHere.get(c.idempotencyKey);
      if (here) return here;
    }
    const { person } = await this.resolve(c.keys);
    const row = this.timelineRow(person.row.id, c.type, c.occurredAt, {
      value: c.value ?? null,
      properties: c.properties ?? null,
      detail: c.detail ?? null,
      source: (c.source as Record<string, unknown>) ?? null,
      expires_at: c.expiresAt?.toISOString() ?? null,
    });
    if (c.custom) this.names.add(c.type);
    this.touch(person, c.source);
    const hasPaid = PURCHASE_EVENTS.has(c.type);
    const current = (person.row.stage as Stage) ?? null;
    const stage = nextStage(current, c.type, this.workspace, person.row.purchases);
    if (hasPaid) person.set('purchases', person.row.purchases + 1);
    if (isEngagingEvent(c.type)) this.engage(person);
    this.happenings.push(happening(this.workspace.id, person.row.id, this.now, { event: eventData(row) }));
    if (stage) this.enterStage(person, current, stage, c.type);
    const result: Success = { ok: true, status: 'recorded', id: person.row.id };
    if (c.idempotencyKey) {
      this.claimedHere.set(c.idempotencyKey, result);
      this.answers.push({ key: c.idempotencyKey, status: 'recorded', record_id: person.row.id });
    }
    return result;
  }

  private async applyIdentify(c: IdentifyCommand): Promise<ItemResult> {
    const { person, status } = await this.resolve(c.keys);
    if (c.name && c.name !== person.row.name) {
      if (!person.isNew || person.row.name !== null) this.fieldChanged(person, 'name', person.row.name, c.name);
      person.set('name', c.name);
    }
    if (c.fields) {
      const fields = { ...(person.row.fields ?? {}) };
      for (const [key, value] of Object.entries(c.fields)) {
        const before = fields[key] ?? null;
        if (before === value) continue;
        if (value === null) delete fields[key];
        else fields[key] = value;
        this.fieldChanged(person, key, before, value);
      }
      person.set('fields', fields);
    }
    this.touch(person, c.source);
    return { ok: true, status, id: person.row.id };
  }

  private async applySubscribe(c: SubscribeCommand): Promise<ItemResult> {
    const list = this.lists.get(c.list);
    if (!list) return new Refusal('unknown_list', `No list has the address "${c.list.slice(0, 80)}": create it in the workspace list settings first.`);
    const { person } = await this.resolve(c.keys);
    this.touch(person, c.source);
    const grantedAt = c.consent.grantedAt ?? this.now;
    const added = await this.peopleRepo.subscribe(this.m, {
      workspace_id: this.workspace.id,
      list_id: list.id,
      person_id: person.row.id,
      consent: c.consent.raw,
      consent_text: c.consent.text,
      consent_ip: c.consent.ip ?? null,
      granted_at: grantedAt.toISOString(),
      source_label: c.sourceLabel ?? null,
      source: c.source ?? null,
    });
    if (!added) return { ok: true, status: 'already_subscribed', id: person.row.id };
    this.engage(person);
    const row = this.timelineRow(person.row.id, 'subscribed', this.now, {
      properties: { list: { address: list.address, name: list.name } },
      detail: list.name,
    });
    this.happenings.push(
      happening(this.workspace.id, person.row.id, this.now, { subscribed: { list: { address: list.address, name: list.name } }, event: eventData(row) }),
    );
    return { ok: true, status: 'subscribed', id: person.row.id };
  }

  private async applySupport(c: SupportCommand): Promise<ItemResult> {
    const { person } = await this.resolve(c.keys);
    if (c.who && !person.row.name) {
      if (!person.isNew) this.fieldChanged(person, 'name', null, c.who);
      person.set('name', c.who);
    }
    this.touch(person, c.source);
    this.engage(person);
    const properties: Record<string, unknown> = { message: c.message };
    for (const field of ['from', 'who', 'topic', 'version'] as const) if (c[field]) properties[field] = c[field];
    const row = this.timelineRow(person.row.id, 'support', this.now, {
      properties,
      detail: c.topic ?? c.message.split('\n')[0].slice(0, 140),
      source: (c.source as Record<string, unknown>) ?? null,
    });
    this.happenings.push(happening(this.workspace.id, person.row.id, this.now, { event: eventData(row) }));
    return { ok: true, status: 'recorded', id: person.row.id };
  }

  // --- people -----------------------------------------------------------------------------------

  /** Finds or creates the person the keys name; keys of two people merge them into the older. */
  private async resolve(keys: IdentityKey[]): Promise<{ person: PersonState; status: IdentifyStatus }> {
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
        if (!person.isNew) this.fieldChanged(person, 'email', null, key.value);
        person.set('email', key.value);
      }
    }
    return { person, status };
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
      },
      true,
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
    survivor.set('engaged_at', plan.engagedAt);
    survivor.set('name', plan.name);
    survivor.set('email', plan.email);
    survivor.set('os', plan.os);
    survivor.set('fields', plan.fields);
    // New people may already own rows written during this transaction (a subscription), so all move.
    await this.peopleRepo.moveOnto(this.m, this.workspace.id, survivor.row.id, plan.absorbedIds);
    for (const id of plan.absorbedIds) this.redirect.set(id, survivor.row.id);
    for (const [key, id] of this.keyToPerson) if (plan.absorbedIds.includes(id)) this.keyToPerson.set(key, survivor.row.id);
    this.timelineRow(survivor.row.id, 'merged', this.now, { properties: { absorbed: plan.absorbedIds } });
    return survivor;
  }

  private touch(person: PersonState, source: SourceInput | undefined): void {
    if (!source) return;
    const os = personOs(source.os);
    if (os && os !== person.row.os) {
      if (!person.isNew || person.row.os !== null) this.fieldChanged(person, 'os', person.row.os, os);
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

  private engage(person: PersonState): void {
    if (!person.row.engaged_at) person.set('engaged_at', this.now);
  }

  private enterStage(person: PersonState, from: Stage | null, stage: Stage, cause: string): void {
    person.set('stage', stage);
    person.set('stage_changed_at', this.now);
    this.timelineRow(person.row.id, 'stage_changed', this.now, { properties: { from, to: stage, event: cause }, detail: stage });
    this.happenings.push(happening(this.workspace.id, person.row.id, this.now, { stage_entered: { stage, from, object: 'person' } }));
  }

  private fieldChanged(person: PersonState, field: string, from: unknown, to: unknown): void {
    this.happenings.push(happening(this.workspace.id, person.row.id, this.now, { field_changed: { field, from, to } }));
  }

  private timelineRow(personId: string, type: string, at: Date, extra: Partial<TimelineRow>): TimelineRow {
    const row: TimelineRow = {
      workspace_id: this.workspace.id,
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
}
