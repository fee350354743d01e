// The ingest transaction's reads and its single write. Everything one post (or batch) changes is
// written by one statement with data-modifying CTEs: one round trip instead of one per table. The
// people and outbox parts come from their owners (peopleWriteCtes, outboxWriteCte).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Happening, outboxWriteCte, preparedQuery } from '@app/core';
import { IdentityRow, peopleWriteCtes, PeopleWrite, PersonRow } from '@app/people';
import { StoredAnswer, TIMELINE_COLUMNS, TIMELINE_RECORD, TimelineRow } from '../timeline.repository';

export interface IngestWrite extends PeopleWrite {
  workspaceId: string;
  rows: TimelineRow[];
  names: string[];
  answers: StoredAnswer[];
  happenings: Happening[];
}

// Events' own writes (timeline, names, idempotency answers) beside the people's and the outbox's, each
// written from the fragment its owner provides.
const WRITE = `
WITH
${peopleWriteCtes('$1::jsonb', '$2')},
timeline AS (
  INSERT INTO events (${TIMELINE_COLUMNS})
  SELECT * FROM jsonb_to_recordset($1::jsonb -> 'rows') AS x(${TIMELINE_RECORD})
  RETURNING 1),
names AS (
  INSERT INTO event_names (workspace_id, name) SELECT $2, jsonb_array_elements_text($1::jsonb -> 'names')
  ON CONFLICT DO NOTHING
  RETURNING 1),
answers AS (
  UPDATE idempotency_keys k SET status = x.status, record_id = x.record_id
    FROM jsonb_to_recordset($1::jsonb -> 'answers') AS x(key text, status text, record_id text)
   WHERE k.workspace_id = $2 AND k.key = x.key
  RETURNING 1),
${outboxWriteCte('$1::jsonb')}
SELECT (SELECT count(*) FROM timeline) AS rows`;

@Injectable()
export class IngestRepository {
  /** Identities of the given keys, each with its person's row. */
  /**
   * The people these keys name, each row locked (FOR UPDATE, in id order) until the post commits. Key
   * locks serialize posts that share a key; this serializes posts that name one person by different
   * keys, so neither overwrites the other's counts. A row lock waited for returns the row as its holder
   * left it; when that holder merged the person away, the keys now name the survivor: load again.
   */
  async load(m: EntityManager, workspaceId: string, kinds: string[], values: string[]): Promise<{ identities: IdentityRow[]; people: PersonRow[] }> {
    if (kinds.length === 0) return { identities: [], people: [] };
    for (let pass = 1; ; pass++) {
      const rows: Array<PersonRow & { identity_kind: string; identity_value: string; merged_into: string | null }> = await preparedQuery(
        m,
        'ingest_load',
        `SELECT i.kind AS identity_kind, i.value AS identity_value, p.workspace_id, p.id, p.name, p.email, p.stage,
                p.stage_changed_at, p.purchases, p.engaged_at, p.os, p.fields, p.first_touch, p.first_touch_at, p.created_at, p.merged_into
           FROM identities i
           JOIN unnest($2::text[], $3::text[]) AS k(kind, value) ON i.kind = k.kind AND i.value = k.value
           JOIN people p ON p.workspace_id = i.workspace_id AND p.id = i.person_id
          WHERE i.workspace_id = $1
          ORDER BY p.id
          FOR UPDATE OF p`,
        [workspaceId, kinds, values],
      );
      // A merge moves the absorbed person's identities in the same transaction, so one more pass sees them moved.
      if (pass < 3 && rows.some((row) => row.merged_into !== null)) continue;
      const people = new Map<string, PersonRow>();
      const identities = rows.map(({ identity_kind, identity_value, merged_into: _merged, ...person }) => {
        people.set(person.id, person);
        return { kind: identity_kind, value: identity_value, person_id: person.id };
      });
      return { identities, people: [...people.values()] };
    }
  }

  async write(m: EntityManager, write: IngestWrite): Promise<void> {
    const { workspaceId, ...data } = write;
    await preparedQuery(m, 'ingest_write', WRITE, [JSON.stringify(data), workspaceId]);
  }
}
