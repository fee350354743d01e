// One transaction of POST /api/v1/events (or a public door): resolves people (PersonResolution),
// applies each command, and writes everything back with one statement. Rules live in the domain
// functions; what the commands write besides people gathers in the IngestLog (ingest-log.ts), written
// once by the unit's flush.
import { ActionSuccess, SUPPRESSED_STATUS } from '@app/wire';
import { isoText, leanRecord, Refusal } from '@app/platform';
import { WorkspaceEntity } from '@app/workspaces';
import {
  isEngagingEvent,
  IdentityKey,
  keyString,
  ListRow,
  nextStage,
  PeopleRepository,
  Stage,
  SubscriptionsRepository,
  SuppressionList,
} from '@app/people';
import type { EntityManager } from 'typeorm';
import type {
  Command,
  EventCommand,
  IdentifyCommand,
  SubscribeCommand,
  SupportCommand,
  UnsubscribeCommand,
} from '../domain';
import type { StoredAnswer } from '../timeline.repository';
import { withdrawByAction } from '../consent/withdrawal-record';
import { recordSubscription, requestConfirmation, unknownList } from '../consent/subscription-record';
import type { PersonChange } from '../segments/domain/inputs';
import { eventData, IngestLog } from './ingest-log';
import { IngestRepository } from './ingest.repository';
import { PersonResolution, type PersonState } from './person-resolution';
import type { NamedTouch, TouchKeys } from './touch-keys';

// The unit's log, as PersonResolution and the lib's index take it.
export { eventData, IngestLog } from './ingest-log';

export type Success = ActionSuccess;
export type ItemResult = Success | Refusal;

export class IngestUnit {
  private readonly log: IngestLog;
  private readonly resolution: PersonResolution;
  private lists = new Map<string, ListRow>();
  private stored = new Map<string, StoredAnswer>();
  private readonly claimedHere = new Map<string, Success>();
  /** The post's identity keys (keyString) that name an erased person. */
  private suppressed = new Set<string>();
  /** Suppression hashes of the keys no one has, for the write to check (when not read here). */
  private unknownHashes: string[] = [];
  /** Keys no one has, in a workspace not known to list erased keys: the write checks it lists none. */
  private noneListed = false;
  /** The first-touch keys this unit's write names in event_touches (noted by the service once committed). */
  named: NamedTouch[] = [];

  constructor(
    private readonly m: EntityManager,
    private readonly workspace: WorkspaceEntity,
    private readonly peopleRepo: PeopleRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly store: IngestRepository,
    private readonly suppressions: SuppressionList,
    private readonly now: Date,
    private readonly touches: TouchKeys,
    /**
     * Read the suppression list here (a round trip), rather than leave the check to the write: after the write found an
     * erased key.
     */
    private readonly readSuppressions = false,
  ) {
    this.log = new IngestLog(workspace.id, now);
    this.resolution = new PersonResolution(m, workspace, peopleRepo, this.log, now, touches);
  }

  async prepare(commands: Command[]): Promise<void> {
    const ws = this.workspace.id;
    const keys = new Map<string, IdentityKey>();
    for (const c of commands) for (const k of c.keys) keys.set(keyString(k), k);
    const idempotencyKeys = commands.flatMap((c) => (c.kind === 'event' && c.idempotencyKey ? [c.idempotencyKey] : []));
    this.stored = await this.store.claimKeys(this.m, ws, [...new Set(idempotencyKeys)]);
    const addresses = commands.flatMap((c) => (c.kind === 'subscribe' || c.kind === 'unsubscribe' ? [c.list] : []));
    if (addresses.length)
      this.lists = new Map(
        (await this.peopleRepo.findLists(this.m, ws, [...new Set(addresses)])).map((l) => [l.address, l]),
      );
    const all = [...keys.values()];
    const loaded = await this.store.load(
      this.m,
      ws,
      all.map((k) => k.kind),
      all.map((k) => k.value),
    );
    this.resolution.seed(loaded);
    // Only a key no one has can be an erased one (an erasure removes the keys it suppresses). The write
    // checks those against the list (no round trip of its own): a post that waited on the lock of a person
    // being erased finds their keys gone, and its write, a later statement, sees the erasure's list. When
    // the write found one, the post runs again and reads the list here, to answer suppressed.
    const known = new Set(loaded.identities.map(keyString));
    const unknown = all.filter((k) => !known.has(keyString(k)));
    if (this.readSuppressions) this.suppressed = await this.suppressions.suppressed(this.m, ws, unknown);
    else if (this.suppressions.mayList(ws))
      this.unknownHashes = unknown.flatMap((k) => this.suppressions.probeHashes(ws, k));
    else this.noneListed = unknown.length > 0;
  }

  /**
   * Applies one command; every happening of a command that is `history` says so (data.historical), so it starts no
   * automation (docs/decisions.md#history-starts-no-automation).
   */
  async apply(command: Command, history = false): Promise<ItemResult> {
    if (this.suppressed.size && command.keys.some((k) => this.suppressed.has(keyString(k))))
      return this.applySuppressed(command);
    this.log.historical = history;
    try {
      switch (command.kind) {
        case 'event':
          return await this.applyEvent(command);
        case 'identify':
          return await this.applyIdentify(command);
        case 'subscribe':
          return await this.applySubscribe(command);
        case 'unsubscribe':
          return await this.applyUnsubscribe(command);
        case 'support':
          return await this.applySupport(command);
      }
    } finally {
      this.log.historical = false;
    }
  }

  /** Writes all; `keys` as keyRecheckCte takes them, `segments` the revision checked and whether more follows. */
  async flush(keys: string[] = [], segments?: { revision: string | null; follows: boolean }): Promise<void> {
    const follow = (id: string) => this.resolution.follow(id);
    const touchOf = (id: string) => this.resolution.touchOf(id);
    this.named = this.resolution.unnamedTouches();
    const write = {
      workspaceId: this.workspace.id,
      segmentsRevision: segments?.revision ?? null,
      keys,
      suppressionHashes: this.unknownHashes,
      suppressionsNone: this.noneListed,
      ...this.resolution.written(),
      // The log's rows and happenings are this unit's own: their people are followed in place, not copied. Each row
      // carries its person's first-touch key as the post leaves them (docs/decisions.md#charts-from-rollups).
      rows: this.log.rows.map(
        (r) => ((r.person_id = follow(r.person_id)), (r.touch = touchOf(r.person_id)), leanRecord(r, 'workspace_id')),
      ),
      retouch: this.resolution.retouched(),
      touches: this.named,
      names: [...this.log.names],
      answers: this.log.answers.map((a) => ({ ...a, record_id: a.record_id && follow(a.record_id) })),
      happenings: this.log.happenings.map((h) => (h.personId && (h.personId = follow(h.personId)), h)),
    };
    await this.store.write(this.m, write, !segments?.follows); // else COMMIT goes with the membership statement
  }

  /** The people the post named, as they are after it, and what it changed of each: whom the live segments recompute. */
  namedPeople = (): string[] => this.resolution.namedPeople();
  changes = (): Map<string, PersonChange> => this.resolution.changes(this.log.rows);

  /**
   * A command naming an erased identity writes nothing (not even a new person) and answers ok, so clients do not retry.
   */
  private applySuppressed(c: Command): ItemResult {
    if (c.kind === 'event' && c.idempotencyKey) {
      const earlier = this.stored.get(c.idempotencyKey);
      if (earlier) return { ok: true, status: earlier.status, ...(earlier.record_id ? { id: earlier.record_id } : {}) };
      if (!this.claimedHere.has(c.idempotencyKey))
        this.log.answers.push({ key: c.idempotencyKey, status: SUPPRESSED_STATUS, record_id: null });
      this.claimedHere.set(c.idempotencyKey, { ok: true, status: SUPPRESSED_STATUS });
    }
    return { ok: true, status: SUPPRESSED_STATUS };
  }

  private async applyEvent(c: EventCommand): Promise<ItemResult> {
    if (c.idempotencyKey) {
      const earlier = this.stored.get(c.idempotencyKey);
      if (earlier) return { ok: true, status: earlier.status, ...(earlier.record_id ? { id: earlier.record_id } : {}) };
      const here = this.claimedHere.get(c.idempotencyKey);
      if (here) return here;
    }
    const { person } = await this.resolution.resolve(c.keys);
    this.resolution.seen(person, c.occurredAt);
    const row = this.log.timelineRow(person.row.id, c.type, c.occurredAt, {
      value: c.value ?? null,
      properties: c.properties ?? null,
      detail: c.detail ?? null,
      source: (c.source as Record<string, unknown>) ?? null,
      expires_at: c.expiresAt ? isoText(c.expiresAt) : null,
    });
    if (c.custom) this.log.names.add(c.type);
    this.resolution.touch(person, c.source);
    const current = (person.row.stage as Stage) ?? null;
    const stage = nextStage(current, c.type, this.workspace, person.row.purchases);
    person.paid(c.type, c.value); // after the stage, which counts the purchases before this one
    if (isEngagingEvent(c.type)) this.resolution.engage(person);
    this.log.happen(person.row.id, { event: eventData(row) });
    if (stage) this.enterStage(person, current, stage, c.type);
    const result: Success = { ok: true, status: 'recorded', id: person.row.id };
    if (c.idempotencyKey) {
      this.claimedHere.set(c.idempotencyKey, result);
      this.log.answers.push({ key: c.idempotencyKey, status: 'recorded', record_id: person.row.id });
    }
    return result;
  }

  private async applyIdentify(c: IdentifyCommand): Promise<ItemResult> {
    const { person, status } = await this.resolution.resolve(c.keys);
    if (c.name && c.name !== person.row.name) {
      if (!person.isNew || person.row.name !== null) this.log.fieldChanged(person, 'name', person.row.name, c.name);
      person.set('name', c.name);
    }
    if (c.fields) {
      const fields = { ...(person.row.fields ?? {}) };
      for (const [key, value] of Object.entries(c.fields)) {
        const before = fields[key] ?? null;
        if (before === value) continue;
        if (value === null) delete fields[key];
        else fields[key] = value;
        this.log.fieldChanged(person, key, before, value);
      }
      person.set('fields', fields);
    }
    this.resolution.touch(person, c.source);
    return { ok: true, status, id: person.row.id };
  }

  private async applySubscribe(c: SubscribeCommand): Promise<ItemResult> {
    const list = this.lists.get(c.list);
    if (!list) return unknownList(c.list);
    const { person } = await this.resolution.resolve(c.keys);
    this.resolution.touch(person, c.source);
    person.seenAt(this.now);
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
      status: list.double_opt_in ? 'pending' : 'subscribed',
    });
    if (!added) return { ok: true, status: 'already_subscribed', id: person.row.id };
    // A double opt-in list: nobody joined yet; the confirmation's POST records it (docs/rest.md#events).
    if (list.double_opt_in) {
      requestConfirmation(this.log, person.row.id, list);
      return { ok: true, status: 'pending', id: person.row.id };
    }
    this.resolution.engage(person);
    recordSubscription(this.log, person.row.id, list, this.now);
    return { ok: true, status: 'subscribed', id: person.row.id };
  }

  /** Takes a known person off the list (docs/rest.md#coming-off-a-list); someone unknown is on no list. */
  private async applyUnsubscribe(c: UnsubscribeCommand): Promise<ItemResult> {
    const list = this.lists.get(c.list);
    if (!list) return unknownList(c.list);
    const personId = this.resolution.known(c.keys)?.row.id;
    const target = { workspaceId: this.workspace.id, personId, list, at: this.now };
    return withdrawByAction(this.m, this.subscriptions, this.log, target);
  }

  private async applySupport(c: SupportCommand): Promise<ItemResult> {
    const { person } = await this.resolution.resolve(c.keys);
    if (c.who && !person.row.name) {
      if (!person.isNew) this.log.fieldChanged(person, 'name', null, c.who);
      person.set('name', c.who);
    }
    this.resolution.touch(person, c.source);
    this.resolution.engage(person);
    person.seenAt(this.now);
    const properties: Record<string, unknown> = { message: c.message };
    for (const field of ['from', 'who', 'topic', 'version'] as const) if (c[field]) properties[field] = c[field];
    const row = this.log.timelineRow(person.row.id, 'support', this.now, {
      properties,
      detail: c.topic ?? c.message.split('\n')[0].slice(0, 140),
      source: (c.source as Record<string, unknown>) ?? null,
    });
    this.log.happen(person.row.id, { event: eventData(row) });
    return { ok: true, status: 'recorded', id: person.row.id };
  }

  private enterStage(person: PersonState, from: Stage | null, stage: Stage, cause: string): void {
    person.set('stage', stage);
    person.set('stage_changed_at', this.now);
    this.log.timelineRow(person.row.id, 'stage_changed', this.now, {
      properties: { from, to: stage, event: cause },
      detail: stage,
    });
    this.log.happen(person.row.id, { stage_entered: { stage, from, object: 'person' } });
  }
}
