// A person's data on request: export everything held about them, erase everything, and
// keep them erased. GraphQL, REST, the CLI and the tool door call these; every context's rows come
// through its registered participant (PersonDataParticipants), so this names no table but people's.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { happening, OutboxWriter } from '@app/outbox';
import { type AppConfig, CONFIG, newId, PersonDataParticipants, readsFromPrimary, Refusal } from '@app/platform';
import {
  erasedRecordHash,
  type IdentityKey,
  type IdentityKind,
  identityKeys,
  isEmail,
  MAX_ID_LENGTH,
  normalizeEmail,
} from '../domain';
import { PeopleRepository, type PersonRow } from '../people.repository';
import { PeopleQueryService } from '../people-query.service';
import { SuppressionList } from './suppression-list';

/** Who asks: an owner or admin of the workspace (a member's key may export, not erase). */
export interface PersonDataCaller {
  workspaceId: string;
  memberId: string;
  role: string;
}

export interface Erasure {
  /** The erasure log's id (era_…): the proof, naming no one. */
  id: string;
  erasedAt: Date;
  /** Rows removed (or, for deliveries kept as sent, redacted) per table, every table named. */
  tables: Array<{ table: string; rows: number }>;
  /** Identity keys now on the suppression list. */
  suppressedKeys: number;
  /** The erased record's id, for the request's own log line; no answer carries it (the erasure log names no one). */
  personId: string;
}

/** The parts of an export: the person's record first, then every section, each a stream of rows. */
export interface PersonExport {
  person: Record<string, unknown>;
  sections: Record<string, () => AsyncIterable<unknown>>;
}

/** The size of the pieces an export is streamed in, in characters. */
const EXPORT_PIECE = 64 * 1024;

/** A document answered whole (GraphQL, the tool door) holds at most this many rows; the download holds any number. */
export const WHOLE_EXPORT_ROWS = 10_000;

/** The happening (and webhook trigger) an erasure fires: its record carries the record id only. */
export const PERSON_ERASED = 'person_erased';

@Injectable()
export class PersonDataService {
  private readonly logger = new Logger('PersonData');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly participants: PersonDataParticipants,
    private readonly suppressions: SuppressionList,
    private readonly outbox: OutboxWriter,
    private readonly people: PeopleRepository,
    private readonly query: PeopleQueryService,
  ) {}

  /**
   * The person `who` names (a record id, an id merged away, or an email), with everyone merged into them;
   * on the primary, as every section is: an export answers everything held, not a lagging copy.
   */
  async exportOf(workspaceId: string, who: string): Promise<PersonExport> {
    const found = await readsFromPrimary(() => this.find(this.dataSource.manager, workspaceId, who, false));
    const { merged_into: _, ...row } = found.person;
    const person = { ...row, mergedIds: found.ids.slice(1) };
    return { person, sections: this.participants.sections(workspaceId, found.ids) };
  }

  /** An export (exportOf, which refuses a person not found before anything is sent) as JSON text, a piece at a time. */
  async *exportText(parts: PersonExport): AsyncIterable<string> {
    let pending = `{"exportedAt":${JSON.stringify(new Date())},"person":${JSON.stringify(parts.person)}`;
    for (const [name, rows] of Object.entries(parts.sections)) {
      pending += `,${JSON.stringify(name)}:[`;
      let first = true;
      for await (const row of rows()) {
        pending += (first ? '' : ',') + JSON.stringify(row);
        first = false;
        // Pieces of about 64 KB: a write per row would cost a buffer and a callback per row.
        if (pending.length >= EXPORT_PIECE) {
          yield pending;
          pending = '';
        }
      }
      pending += ']';
    }
    yield `${pending}}\n`;
  }

  /** The whole export as one value, for answers that cannot stream (GraphQL, the tool door); bounded. */
  async exportDocument(workspaceId: string, who: string): Promise<Record<string, unknown>> {
    const parts = await this.exportOf(workspaceId, who);
    const document: Record<string, unknown> = { exportedAt: new Date(), person: parts.person };
    let rows = 0;
    for (const [name, section] of Object.entries(parts.sections)) {
      const list: unknown[] = [];
      for await (const row of section()) {
        if (++rows > WHOLE_EXPORT_ROWS) {
          throw new Refusal(
            'too_large',
            `This person has more than ${WHOLE_EXPORT_ROWS.toLocaleString('en')} rows: download the export ` +
              `from GET /api/v1/people/{id}/export or with \`npm run cli -- person export\`.`,
          );
        }
        list.push(row);
      }
      document[name] = list;
    }
    return document;
  }

  /**
   * Erases the person `who` names and everyone merged into them, in one transaction: every context's
   * rows (its participant), their identity keys onto the suppression list, a person_erased happening,
   * and a line in the erasure log. Owners and admins only.
   */
  async erase(caller: PersonDataCaller, who: string): Promise<Erasure> {
    if (caller.role !== 'owner' && caller.role !== 'admin') {
      throw new Refusal('forbidden', 'Only workspace owners and admins may erase a person: ask one of them.');
    }
    const { workspaceId } = caller;
    const answer = await this.dataSource.transaction(async (m) => {
      const { person, ids } = await this.find(m, workspaceId, who, true);
      const keys: Array<IdentityKey & { person_id: string }> = await m.query(
        `SELECT kind, value, person_id FROM identities WHERE workspace_id = $1 AND person_id = ANY($2::text[])`,
        [workspaceId, ids],
      );
      const names: Array<{ name: string | null; email: string | null }> = await m.query(
        `SELECT name, email FROM people WHERE workspace_id = $1 AND id = ANY($2::text[])`,
        [workspaceId, ids],
      );
      const values = [
        ...new Set([
          ...keys.map((k) => k.value),
          ...names.flatMap((n) => [n.name, n.email].filter((v): v is string => !!v)),
        ]),
      ];
      const counts = await this.participants.eraseAll(m, { workspaceId, personIds: ids, values });
      const id = newId('era');
      const suppressedKeys = await this.suppressions.add(m, workspaceId, keys, id);
      const erasedAt = new Date();
      await this.outbox.write(m, [happening(workspaceId, person.id, erasedAt, { [PERSON_ERASED]: {} })]);
      await m.query(
        `INSERT INTO erasures (workspace_id, id, person_hash, asked_by, counts, erased_at) VALUES ($1, $2, $3, ` +
          `$4, $5::jsonb, $6)`,
        [
          workspaceId,
          id,
          erasedRecordHash(this.config.appSecret, workspaceId, person.id),
          caller.memberId,
          JSON.stringify(counts),
          erasedAt,
        ],
      );
      const tables = Object.entries(counts)
        .map(([table, rows]) => ({ table, rows }))
        .sort((a, b) => a.table.localeCompare(b.table));
      return { id, erasedAt, tables, suppressedKeys, personId: person.id };
    });
    this.outbox.kick();
    this.logger.log(
      `erasure ${answer.id} in workspace ${workspaceId}: ${answer.tables.reduce((n, t) => n + t.rows, 0)} rows`,
    );
    return answer;
  }

  /** Lifts the suppression of one identity key; owners only. True when it was suppressed. */
  async lift(caller: PersonDataCaller, kind: string, value: string): Promise<boolean> {
    if (caller.role !== 'owner')
      throw new Refusal('forbidden', 'Only workspace owners may lift a suppression: ask one of them.');
    return this.suppressions.lift(caller.workspaceId, identityKey(kind, value));
  }

  /**
   * The person `who` names and the ids of everyone merged into them (the person's first). `lock` takes
   * the person's row as the ingest does (PeopleRepository.lockPerson), so no post merges into them or
   * adds to them meanwhile.
   */
  private async find(
    m: EntityManager,
    workspaceId: string,
    who: string,
    lock: boolean,
  ): Promise<{ person: PersonRow & { merged_into?: string | null }; ids: string[] }> {
    const target = (who ?? '').trim();
    if (!target) throw new Refusal('invalid_field', 'Name the person by record id or email address.');
    const byEmail = target.includes('@');
    let person: PersonRow | null;
    if (lock) {
      const [key] = byEmail
        ? await m.query(`SELECT person_id FROM identities WHERE workspace_id = $1 AND kind = 'email' AND value = $2`, [
            workspaceId,
            normalizeEmail(target),
          ])
        : [];
      const id: string | undefined = byEmail ? key?.person_id : target;
      person = id ? await this.people.lockPerson(m, workspaceId, id) : null;
    } else {
      person = await this.query.byWho(workspaceId, target);
    }
    if (!person)
      throw new Refusal(
        'no_such_person',
        `No person in this workspace has the record id or email ${JSON.stringify(target.slice(0, 200))}.`,
      );
    const merged: Array<{ id: string }> = await m.query(
      `SELECT id FROM people WHERE workspace_id = $1 AND merged_into = $2 ORDER BY created_at, id`,
      [workspaceId, person.id],
    );
    return { person, ids: [person.id, ...merged.map((r) => r.id)] };
  }
}

/** An identity key as an owner names it to lift its suppression, normalized as the ingest normalizes it. */
function identityKey(kind: string, value: string): IdentityKey {
  if (!IDENTITY_KINDS.includes(kind as IdentityKind))
    throw new Refusal('invalid_field', 'kind must be email, anon_id or account_id.');
  const [key] = identityKeys({ [kind]: String(value ?? '') });
  if (!key || key.value.length > MAX_ID_LENGTH)
    throw new Refusal('invalid_field', `value must be 1 to ${MAX_ID_LENGTH} characters.`);
  if (key.kind === 'email' && !isEmail(key.value))
    throw new Refusal('invalid_email', 'value must be an email address, like ada@example.com.');
  return key;
}

const IDENTITY_KINDS: readonly IdentityKind[] = ['email', 'anon_id', 'account_id'];
