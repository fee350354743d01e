// Rows for tests, built straight in the database with sensible defaults: a test names only what it is
// about. Every factory answers the row it wrote. Used by the medium specs and for e2e set-up.
import type { DataSource } from 'typeorm';
import { newId, randomBase62 } from '@app/core';

type Row = Record<string, any>;

export class Factories {
  constructor(private readonly db: DataSource) {}

  private async insert(table: string, row: Row): Promise<Row> {
    const columns = Object.keys(row);
    const values = columns.map((c) => (row[c] !== null && typeof row[c] === 'object' && !(row[c] instanceof Date) && !Array.isArray(row[c]) ? JSON.stringify(row[c]) : row[c]));
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

  /** Moves a row's time column into the past, for retention and expiry rules. */
  async age(table: 'deliveries' | 'door_receipts' | 'outbox' | 'events' | 'messages', column: string, by: string, where: Row): Promise<void> {
    const keys = Object.keys(where);
    await this.db.query(
      `UPDATE ${table} SET ${column} = now() - $1::interval WHERE ${keys.map((k, i) => `${k} = $${i + 2}`).join(' AND ')}`,
      [by, ...keys.map((k) => where[k])],
    );
  }
}
