// Rows for tests, built straight in the database with sensible defaults: a test names only what it is
// about. Every factory answers the row it wrote. Used by the medium specs and for e2e set-up.
import type { Type } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AutomationsRepository, RunsRepository } from '@app/automations';
import { newId, randomBase62 } from '@app/core';

type Row = Record<string, any>;
type Owner = <T>(type: Type<T>) => T;
type AgedTable = 'deliveries' | 'door_receipts' | 'outbox' | 'events' | 'messages' | 'automation_runs' | 'webhook_endpoints';

/** Objects go to json columns as JSON; arrays stay arrays (text[] columns); a json array is passed as a JSON string. */
const param = (value: unknown) => (value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value) ? JSON.stringify(value) : value);

export class Factories {
  /** `owner` finds a repository or service in the app (or the medium tier) under test. */
  constructor(
    private readonly db: DataSource,
    private readonly owner: Owner,
  ) {}

  private async insert(table: string, row: Row): Promise<Row> {
    const columns = Object.keys(row);
    const values = columns.map((c) => param(row[c]));
    const [written] = await this.db.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
      values,
    );
    return written;
  }

  workspace(row: Row = {}): Promise<Row> {
    const slug = `ws-${randomBase62(8).toLowerCase()}`;
    return this.insert('workspaces', { id: newId('ws'), slug, name: slug, public_key: `wk_${randomBase62(24)}`, ...row });
  }

  /** A person with an identity per key given (`{ email: 'a@b.c' }`, `{ anon_id: 'x' }`). */
  async person(workspaceId: string, keys: Partial<Record<'email' | 'anon_id' | 'account_id', string>> = {}, row: Row = {}): Promise<Row> {
    const person = await this.insert('people', { workspace_id: workspaceId, id: newId('per'), email: keys.email ?? null, ...row });
    for (const [kind, value] of Object.entries(keys)) await this.insert('identities', { workspace_id: workspaceId, kind, value, person_id: person.id });
    return person;
  }

  event(workspaceId: string, personId: string, row: Row = {}): Promise<Row> {
    return this.insert('events', { workspace_id: workspaceId, id: newId('evt'), occurred_at: new Date(), person_id: personId, type: 'pageview', ...row });
  }

  list(workspaceId: string, row: Row = {}): Promise<Row> {
    const address = `list-${randomBase62(6).toLowerCase()}`;
    return this.insert('lists', { workspace_id: workspaceId, id: newId('lst'), address, name: address, ...row });
  }

  subscription(workspaceId: string, listId: string, personId: string, row: Row = {}): Promise<Row> {
    return this.insert('subscriptions', {
      workspace_id: workspaceId,
      list_id: listId,
      person_id: personId,
      status: 'subscribed',
      consent: JSON.stringify('I agree'),
      consent_text: 'I agree',
      granted_at: new Date(),
      ...row,
    });
  }

  message(workspaceId: string, personId: string, row: Row = {}): Promise<Row> {
    return this.insert('messages', {
      workspace_id: workspaceId,
      id: newId('msg'),
      person_id: personId,
      direction: 'out',
      at: new Date(),
      subject: 'Hello',
      text: 'Hello there',
      address: 'someone@example.com',
      ...row,
    });
  }

  /** An endpoint whose sealed secret is a placeholder: enough for claims, not for signing. */
  endpoint(workspaceId: string, row: Row = {}): Promise<Row> {
    return this.insert('webhook_endpoints', {
      workspace_id: workspaceId,
      id: newId('whe'),
      url: 'https://receiver.example.com/hook',
      triggers: ['event'],
      secret_sealed: 'sealed',
      ...row,
    });
  }

  /** A pending delivery, due now unless said otherwise. */
  delivery(workspaceId: string, endpointId: string, row: Row = {}): Promise<Row> {
    return this.insert('deliveries', {
      workspace_id: workspaceId,
      id: newId('dlv'),
      endpoint_id: endpointId,
      type: 'event',
      body: '{}',
      next_attempt_at: new Date(Date.now() - 1000),
      ...row,
    });
  }

  /** One outbox row (a transaction's happenings): by default one event happening with the payload given. */
  outbox(workspaceId: string, row: Row = {}, payload: Row = {}): Promise<Row> {
    return this.insert('outbox', { workspace_id: workspaceId, happenings: JSON.stringify([{ kind: 'event', personId: null, payload }]), ...row });
  }

  /** An automation (a draft, by default started by pageview events and waiting a minute). */
  async automation(workspaceId: string, row: Row = {}): Promise<Row> {
    const defaults = { name: 'Test automation', trigger: { kind: 'event' as const, event: 'pageview' }, steps: [{ kind: 'wait' as const, seconds: 60 }] };
    const made = await this.owner(AutomationsRepository).create({ workspaceId, id: newId('aut'), ...defaults, ...row });
    return this.stored('automations', { workspace_id: workspaceId, id: made.id });
  }

  /** A run of the automation for the person, due at once, as a happening would start it. */
  async run(workspaceId: string, automation: Row, personId: string): Promise<Row> {
    const id = newId('run');
    const run = { workspaceId, id, automationId: automation.id, personId, outboxId: null, trigger: automation.trigger, steps: automation.steps, properties: null, firstLine: 'Started.' };
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
    const columns = Object.keys(values);
    await this.update(table, columns.map((c, i) => `${c} = $${i + 1}`), columns.map((c) => param(values[c])), where);
  }

  private async stored(table: 'automations' | 'automation_runs', key: Row): Promise<Row> {
    const keys = Object.keys(key);
    const [row] = await this.db.query(`SELECT * FROM ${table} WHERE ${keys.map((k, i) => `${k} = $${i + 1}`).join(' AND ')}`, Object.values(key));
    return row;
  }

  private async update(table: string, set: string[], args: unknown[], where: Row): Promise<void> {
    const keys = Object.keys(where);
    await this.db.query(
      `UPDATE ${table} SET ${set.join(', ')} WHERE ${keys.map((k, i) => `${k} = $${args.length + i + 1}`).join(' AND ')}`,
      [...args, ...keys.map((k) => where[k])],
    );
  }
}
