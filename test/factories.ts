// Rows for tests with sensible defaults: a test names only what it is about. Each factory writes through
// the repository that owns the table, as the app would; what no owner method writes (state that only
// time, an attempt or the worker brings about: attempts, claims, created_at, failing_since) is set
// straight afterwards. Every factory answers the row as stored. Used by the medium specs and for e2e set-up.
import type { Type } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AutomationsRepository, RunsRepository } from '@app/automations';
import { TimelineRepository } from '@app/events';
import { MessagesRepository, MessageWrite } from '@app/messaging';
import { outboxDocument, outboxWriteCte } from '@app/outbox';
import { PeopleRepository, peopleWriteCtes } from '@app/people';
import { newId, randomBase62 } from '@app/platform';
import { DeliveriesRepository, EndpointsRepository } from '@app/webhooks';
import { NewWorkspace, WorkspacesRepository } from '@app/workspaces';

type Row = Record<string, any>;
type Owner = <T>(type: Type<T>) => T;
type AgedTable =
  'deliveries' | 'door_receipts' | 'outbox' | 'events' | 'messages' | 'automation_runs' | 'webhook_endpoints';
type FactoryTable =
  | 'workspaces'
  | 'people'
  | 'events'
  | 'lists'
  | 'subscriptions'
  | 'messages'
  | 'webhook_endpoints'
  | 'deliveries'
  | 'outbox'
  | 'automations'
  | 'automation_runs';

/** Objects go to json columns as JSON; arrays stay arrays (text[] columns); a json array is passed as a JSON string. */
const param = (value: unknown) =>
  value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value)
    ? JSON.stringify(value)
    : value;

export class Factories {
  /** `owner` finds a repository or service in the app (or the medium tier) under test. */
  constructor(
    private readonly db: DataSource,
    private readonly owner: Owner,
  ) {}

  async workspace(row: Partial<NewWorkspace> = {}): Promise<Row> {
    const slug = `ws-${randomBase62(8).toLowerCase()}`;
    const workspaces = this.owner(WorkspacesRepository);
    const id = newId('ws');
    const defaults = {
      slug,
      name: slug,
      publicKey: `wk_${randomBase62(24)}`,
      kind: 'app' as const,
      allowedOrigins: [],
      trialStage: false,
      downloaderStage: true,
      activationEvents: [],
    };
    await workspaces.transaction((tx) => workspaces.insertWorkspace(tx, { id, ...defaults, ...row }));
    return this.stored('workspaces', { id });
  }

  /** A person with an identity per key given (`{ email: 'a@b.c' }`, `{ anon_id: 'x' }`), written as the ingest writes them. */
  async person(
    workspaceId: string,
    keys: Partial<Record<'email' | 'anon_id' | 'account_id', string>> = {},
    row: Row = {},
  ): Promise<Row> {
    const id = newId('per');
    const person = {
      id,
      name: null,
      email: keys.email ?? null,
      purchases: 0,
      fields: {},
      created_at: new Date(),
      revenue: '0',
      ...row,
    };
    // A new person is last seen when first seen, as the ingest writes them, unless the row says otherwise.
    const written = { last_seen_at: person.created_at, ...person };
    const identities = Object.entries(keys).map(([kind, value]) => ({
      kind,
      value,
      person_id: id,
      person_created_at: person.created_at,
    }));
    await this.db.query(`WITH ${peopleWriteCtes('$1::jsonb', '$2')} SELECT 1`, [
      JSON.stringify({ newPeople: [written], changedPeople: [], identities }),
      workspaceId,
    ]);
    return this.stored('people', { workspace_id: workspaceId, id });
  }

  async event(workspaceId: string, personId: string, row: Row = {}): Promise<Row> {
    const id = newId('evt');
    const event = {
      workspace_id: workspaceId,
      id,
      occurred_at: new Date().toISOString(),
      person_id: personId,
      type: 'pageview',
      value: null,
      properties: null,
      detail: null,
      source: null,
      expires_at: null,
      ...row,
    };
    await this.owner(TimelineRepository).insertRows(this.db.manager, [event]);
    return this.stored('events', { workspace_id: workspaceId, id });
  }

  /** `n` timeline rows of one person, a second apart (the newest now), written as insertRows writes them, 10,000 a statement. */
  async events(workspaceId: string, personId: string, n: number, row: Row = {}): Promise<void> {
    const now = Date.now();
    for (let from = 0; from < n; from += 10_000) {
      const rows = Array.from({ length: Math.min(10_000, n - from) }, (_, i) => ({
        workspace_id: workspaceId,
        id: newId('evt'),
        occurred_at: new Date(now - (n - from - i) * 1000).toISOString(),
        person_id: personId,
        type: 'pageview',
        value: null,
        properties: { path: `/page/${from + i}` },
        detail: null,
        source: null,
        expires_at: null,
        ...row,
      }));
      await this.owner(TimelineRepository).insertRows(this.db.manager, rows);
    }
  }

  async list(workspaceId: string, row: Row = {}): Promise<Row> {
    const address = `list-${randomBase62(6).toLowerCase()}`;
    const list = await this.owner(PeopleRepository).createList(
      workspaceId,
      newId('list'),
      row.address ?? address,
      row.name ?? address,
    );
    return this.stored('lists', { workspace_id: workspaceId, id: list!.id });
  }

  async subscription(workspaceId: string, listId: string, personId: string, row: Row = {}): Promise<Row> {
    const { granted_at = new Date(), ...rest } = row;
    const write = {
      consent: 'I agree',
      consent_text: 'I agree',
      consent_ip: null,
      source_label: null,
      source: null,
      ...rest,
    };
    const key = { workspace_id: workspaceId, list_id: listId, person_id: personId };
    await this.owner(PeopleRepository).subscribe(this.db.manager, {
      ...write,
      ...key,
      granted_at: new Date(granted_at).toISOString(),
    });
    return this.stored('subscriptions', key);
  }

  /** An outgoing message, with its row on the person's timeline (as the messages repository writes it). */
  async message(workspaceId: string, personId: string, row: Partial<MessageWrite> = {}): Promise<Row> {
    const messages = this.owner(MessagesRepository);
    const id = newId('msg');
    const defaults = {
      direction: 'out' as const,
      at: new Date(),
      subject: 'Hello',
      text: 'Hello there',
      html: null,
      templateId: null,
      sendState: 'stored' as const,
      address: 'someone@example.com',
    };
    await messages.transaction((m) => messages.insert(m, { workspaceId, id, personId, ...defaults, ...row }));
    return this.stored('messages', { workspace_id: workspaceId, id });
  }

  /** An endpoint whose sealed secret is a placeholder: enough for claims, not for signing. A disabled_reason disables it. */
  async endpoint(workspaceId: string, row: Row = {}): Promise<Row> {
    const {
      url = 'https://receiver.example.com/hook',
      triggers = ['event'],
      secret_sealed = 'sealed',
      rate_limit_per_second = null,
      disabled_reason,
      ...later
    } = row;
    const endpoints = this.owner(EndpointsRepository);
    const key = { workspace_id: workspaceId, id: newId('whe') };
    await endpoints.createWithin(Infinity, { ...key, url, triggers, secret_sealed, rate_limit_per_second });
    if (disabled_reason) await endpoints.disable(workspaceId, key.id, disabled_reason);
    return this.later('webhook_endpoints', key, later);
  }

  /**
   * A pending delivery, due now unless next_attempt_at says otherwise; state failed is the owner's too.
   * Other states, attempts, claims and created_at are what attempts leave behind: set after.
   */
  async delivery(workspaceId: string, endpointId: string, row: Row = {}): Promise<Row> {
    const { body = '{}', type = 'event', next_attempt_at = new Date(Date.now() - 1000), ...later } = row;
    // The owner makes failed deliveries too (for a disabled address): with no next attempt.
    const failed = later.state === 'failed';
    if (failed) delete later.state;
    else if (next_attempt_at === null) later.next_attempt_at = null;
    const dueInMs = next_attempt_at ? next_attempt_at.getTime() - Date.now() : undefined;
    const key = { workspace_id: workspaceId, id: newId('dlv') };
    const delivery = {
      workspaceId,
      id: key.id,
      endpointId,
      outboxId: null,
      type,
      body,
      state: failed ? ('failed' as const) : undefined,
      dueInMs,
    };
    await this.owner(DeliveriesRepository).insert(this.db.manager, [delivery]);
    return this.later('deliveries', key, later);
  }

  /** One outbox row (a transaction's happenings): one event happening with the payload given. */
  async outbox(workspaceId: string, row: Row = {}, payload: Row = {}): Promise<Row> {
    const doc = { happenings: outboxDocument([{ workspaceId, kind: 'event', personId: null, payload }]) };
    // One statement, as the relay tests write in a tight loop; its transaction id finds the row (the outbox's xid defaults to it).
    const [{ xid }] = await this.db.query(
      `WITH ${outboxWriteCte('$1::jsonb', '$2')} SELECT pg_current_xact_id()::text AS xid`,
      [JSON.stringify(doc), workspaceId],
    );
    return this.later('outbox', { workspace_id: workspaceId, xid }, row);
  }

  /** An outbox row holding no happenings: no writer makes one (outboxWriteCte and OutboxWriter skip them), so it is inserted straight. */
  async emptyOutboxRow(workspaceId: string): Promise<Row> {
    const [row] = await this.db.query(
      `INSERT INTO outbox (workspace_id, happenings) VALUES ($1, '[]'::jsonb) RETURNING *`,
      [workspaceId],
    );
    return row;
  }

  /** An automation (a draft, by default started by pageview events and waiting a minute). */
  async automation(workspaceId: string, row: Row = {}): Promise<Row> {
    const defaults = {
      name: 'Test automation',
      trigger: { kind: 'event' as const, event: 'pageview' },
      steps: [{ kind: 'wait' as const, seconds: 60 }],
    };
    const made = await this.owner(AutomationsRepository).create({ workspaceId, id: newId('aut'), ...defaults, ...row });
    return this.stored('automations', { workspace_id: workspaceId, id: made.id });
  }

  /** A run of the automation for the person, due at once, as a happening would start it. */
  async run(workspaceId: string, automation: Row, personId: string): Promise<Row> {
    const id = newId('run');
    const run = {
      workspaceId,
      id,
      automationId: automation.id,
      personId,
      outboxId: null,
      trigger: automation.trigger,
      steps: automation.steps,
      properties: null,
      firstLine: 'Started.',
    };
    await this.owner(RunsRepository).insert(null, [run]);
    return this.stored('automation_runs', { workspace_id: workspaceId, id });
  }

  /**
   * Moves time columns of rows into the past, for retention and expiry rules. A key of where may be an
   * expression (`"properties->>'mark'"`).
   */
  async age(table: AgedTable, columns: string | string[], by: string, where: Row): Promise<void> {
    const set = [columns].flat().map((c) => `${c} = now() - $1::interval`);
    await this.update(table, set, [by], where);
  }

  /** Changes rows behind the service's back, as the world outside would (an address that turned private). */
  async set(table: 'people' | 'automations' | 'webhook_endpoints', values: Row, where: Row): Promise<void> {
    await this.assign(table, values, where);
  }

  /** Sets what no owner method writes on a row a factory just made, and answers the row as stored. */
  private async later(table: FactoryTable, key: Row, values: Row): Promise<Row> {
    if (Object.keys(values).length > 0) await this.assign(table, values, key);
    return this.stored(table, key);
  }

  private async stored(table: FactoryTable, key: Row): Promise<Row> {
    const keys = Object.keys(key);
    const [row] = await this.db.query(
      `SELECT * FROM ${table} WHERE ${keys.map((k, i) => `${k} = $${i + 1}`).join(' AND ')}`,
      Object.values(key),
    );
    return row;
  }

  private async assign(table: string, values: Row, where: Row): Promise<void> {
    const columns = Object.keys(values);
    await this.update(
      table,
      columns.map((c, i) => `${c} = $${i + 1}`),
      columns.map((c) => param(values[c])),
      where,
    );
  }

  private async update(table: string, set: string[], args: unknown[], where: Row): Promise<void> {
    const keys = Object.keys(where);
    await this.db.query(
      `UPDATE ${table} SET ${set.join(', ')} WHERE ${keys.map((k, i) => `${k} = $${args.length + i + 1}`).join(' AND ')}`,
      [...args, ...keys.map((k) => where[k])],
    );
  }
}
