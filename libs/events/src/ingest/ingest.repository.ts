// The ingest transaction's reads and its single write. Everything one post (or batch) changes is
// written by one statement with data-modifying CTEs: one round trip instead of one per table. The
// people and outbox parts come from their owners (peopleKeysNameCtes, peopleWriteCtes, outboxWriteCte).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Happening, outboxDocument, outboxWriteCte } from '@app/outbox';
import { keyRecheckCte } from '@app/workspaces';
import { segmentsCheckCte } from '../segments/membership.repository';
import { commitWithNext, jsonbParam, pipelinedTransaction, preparedQuery } from '@app/platform';
import {
  IdentityRow,
  peopleKeysNameCtes,
  peopleWriteCtes,
  PeopleWrite,
  PersonRow,
  suppressionCheckCte,
} from '@app/people';
import { StoredAnswer, TIMELINE_COLUMNS, TIMELINE_LEAN_RECORD, TimelineRow } from '../timeline.repository';
import type { NamedTouch } from './touch-keys';

export interface IngestWrite extends PeopleWrite {
  workspaceId: string;
  /** The workspace's segment revision the post compiled its membership statement for (segmentsCheckCte). */
  segmentsRevision: string | null;
  /** Secret keys that must still be live for anything to be written (keyRecheckCte). */
  keys: string[];
  /** Suppression hashes of the keys the load did not find: none may be on the list (suppressionCheckCte). */
  suppressionHashes: string[];
  /** Instead of hashes: the workspace may list no erased key at all (suppressionCheckCte). */
  suppressionsNone: boolean;
  /** Timeline rows of this workspace as leanRecord(row, 'workspace_id') makes them, each with its first-touch key. */
  rows: Array<Partial<TimelineRow & { touch: string }>>;
  /** People whose rows written before take a new first-touch key (a first touch set, a merge). */
  retouch: Array<{ person_id: string; touch: string }>;
  /** First-touch keys event_touches may lack. */
  touches: NamedTouch[];
  names: string[];
  answers: StoredAnswer[];
  happenings: Happening[];
}

// Events' own writes (timeline, names, idempotency answers) beside the people's and the outbox's, each
// written from the fragment its owner provides, and the key check of a post whose key was remembered
// (keyRecheckCte: a key revoked since fails the whole statement), and the suppression check of the keys
// the post adds (suppressionCheckCte: a key erased since fails it too).
const ingestWrite = (touches: string) => `
WITH
${peopleWriteCtes('$1::jsonb', '$2')},
timeline AS (
  INSERT INTO events (${TIMELINE_COLUMNS}, touch)
  SELECT $2, x.* FROM jsonb_to_recordset($1::jsonb -> 'rows') AS x(${TIMELINE_LEAN_RECORD}, touch bigint)
  RETURNING 1),${touches}
names AS (
  INSERT INTO event_names (workspace_id, name) SELECT $2, jsonb_array_elements_text($1::jsonb -> 'names')
  ON CONFLICT DO NOTHING
  RETURNING 1),
answers AS (
  UPDATE idempotency_keys k SET status = x.status, record_id = x.record_id
    FROM jsonb_to_recordset($1::jsonb -> 'answers') AS x(key text, status text, record_id text)
   WHERE k.workspace_id = $2 AND k.key = x.key
  RETURNING 1),
${outboxWriteCte('$1::jsonb', '$2')},
${keyRecheckCte('$1::jsonb', '$2')},
${suppressionCheckCte('$1::jsonb', '$2')},
${segmentsCheckCte('$1::jsonb', '$2')}
SELECT (SELECT count(*) FROM timeline) AS rows, (SELECT count(*) FROM key_recheck) AS refused_keys,
       (SELECT count(*) FROM suppression_check) AS suppressed_keys, (SELECT count(*) FROM segments_check) AS segments`;
export const INGEST_WRITE = ingestWrite('');

/**
 * The write of a post that also rewrites the first-touch key of people's rows written before (a first
 * touch set, a merge), or names keys in event_touches: a second statement, so the usual write plans and
 * locks no UPDATE of events. The new rows carry their key already; the UPDATE does not see them.
 */
export const INGEST_WRITE_TOUCHES = ingestWrite(`
retouched AS (
  UPDATE events e SET touch = x.touch FROM jsonb_to_recordset($1::jsonb -> 'retouch') AS x(person_id text, touch bigint)
   WHERE e.workspace_id = $2 AND e.person_id = x.person_id AND e.touch IS DISTINCT FROM x.touch
  RETURNING 1),
named_touches AS (
  INSERT INTO event_touches (workspace_id, touch, source, medium, campaign)
  SELECT $2, x.* FROM jsonb_to_recordset($1::jsonb -> 'touches') AS x(touch bigint, source text, medium text, campaign text)
  ON CONFLICT DO NOTHING
  RETURNING 1),`);

/**
 * The people these keys name (people's peopleKeysNameCtes), each row locked (FOR UPDATE, in id order)
 * until the post commits. Every lookup is a probe by a full key (identities by (workspace, kind, value),
 * people by (workspace, id)) inside a LATERAL subquery the planner cannot flatten into a join, so no
 * plan, generic or custom, made on empty or full tables, can read a whole workspace
 * (test/medium/ingest-plan.spec.ts).
 *
 * It also sets, for the rest of its transaction, the planner to key probes only (no sequential, bitmap,
 * hash or merge scans where an index probe exists), so the write that follows, a prepared statement whose
 * generic plan would otherwise be made once on near-empty tables and kept (a hash join reading every
 * person of the workspace, seen at 30 ms a post over 100,000 people), is planned as probes by key too.
 * Folded into the load, this costs no round trip.
 */
export const INGEST_LOAD = `
WITH probes_only AS MATERIALIZED (
  SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
         set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)),
${peopleKeysNameCtes('$1', '$2::text[]', '$3::text[]')}
SELECT f.kind AS identity_kind, f.value AS identity_value, l.* FROM found f JOIN locked l ON l.id = f.person_id
 WHERE (SELECT count(*) FROM probes_only) = 1
 ORDER BY l.id`;

@Injectable()
export class IngestRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The ingest transaction: claims, load and write run on its manager. BEGIN goes with its first
   * statement and COMMIT with the write, its last (pipelinedTransaction): two round trips for a load
   * and a write, not four.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return pipelinedTransaction(this.dataSource, work);
  }

  /**
   * Claims idempotency keys for this transaction. Keys already claimed (by an earlier post, or by a
   * concurrent one, which this waits for) come back with the answer they were given.
   */
  async claimKeys(m: EntityManager, workspaceId: string, keys: string[]): Promise<Map<string, StoredAnswer>> {
    const stored = new Map<string, StoredAnswer>();
    if (keys.length === 0) return stored;
    const claimed: Array<{ key: string }> = await m.query(
      `INSERT INTO idempotency_keys (workspace_id, key, status) SELECT $1, unnest($2::text[]), 'pending'
       ON CONFLICT DO NOTHING RETURNING key`,
      [workspaceId, keys],
    );
    const mine = new Set(claimed.map((c) => c.key));
    const taken = keys.filter((k) => !mine.has(k));
    if (taken.length) {
      const rows: StoredAnswer[] = await m.query(
        `SELECT key, status, record_id FROM idempotency_keys WHERE workspace_id = $1 AND key = ANY($2::text[])`,
        [workspaceId, taken],
      );
      for (const row of rows) stored.set(row.key, row);
    }
    return stored;
  }

  /**
   * Posts that name one person (by any keys) wait for each other on the person's row lock, so neither
   * overwrites the other's counts. A row lock waited for returns the row as its holder left it; when
   * that holder merged the person away, the keys now name the survivor: load again. Posts that add the
   * same new key meet at the identities key instead: the later one's write fails and the unit runs again
   * (IngestService), when its load finds the key.
   */
  async load(
    m: EntityManager,
    workspaceId: string,
    kinds: string[],
    values: string[],
  ): Promise<{ identities: IdentityRow[]; people: PersonRow[] }> {
    if (kinds.length === 0) return { identities: [], people: [] };
    for (let pass = 1; ; pass++) {
      const rows: Array<PersonRow & { identity_kind: string; identity_value: string; merged_into: string | null }> =
        await preparedQuery(m, 'ingest_load', INGEST_LOAD, [workspaceId, kinds, values]);
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

  /** `commits`: the transaction's last statement, COMMIT goes with it (otherwise the membership statement follows). */
  async write(m: EntityManager, write: IngestWrite, commits = true): Promise<void> {
    const { workspaceId, happenings, ...data } = write;
    const touches = data.retouch.length > 0 || data.touches.length > 0;
    const [name, sql] = touches ? ['ingest_write_touches', INGEST_WRITE_TOUCHES] : ['ingest_write', INGEST_WRITE];
    // A Buffer in jsonb's binary format, not the string: pg's byteLength of a fresh 400 kB string cost more than its
    // stringify.
    const document = jsonbParam({ ...data, happenings: outboxDocument(happenings) });
    if (commits) commitWithNext(m);
    await preparedQuery(m, name, sql, [document, workspaceId]);
  }
}
