// A person's data on request: every context that keeps rows naming a person registers a
// participant here, as contexts register merge participants, sweeps and gauges. Erasure calls every
// participant inside one transaction; the export reads every participant's section in turn. A context
// added later joins by registering; test/person-data.spec.ts fails when a table of the schema is
// neither some participant's nor listed as holding no personal data.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** One erasure: the person, every person merged into them, and every key and name they were known by. */
export interface PersonErasure {
  workspaceId: string;
  /** The person's record id first, then every record id merged into it. */
  personIds: string[];
  /**
   * Every identity value (emails, account ids, anonymous ids) and name the person had: a row of another
   * kind (a delivery body, an outbox happening) that holds one of these as a JSON string names them.
   */
  values: string[];
}

/** Rows removed (or, for a copy that is kept, redacted) per table. */
export type ErasedCounts = Record<string, number>;

export interface PersonDataParticipant {
  /** Unique; registering the same name again replaces the earlier participant. */
  readonly name: string;
  /** The tables whose rows naming a person this participant erases (and exports). */
  readonly tables: readonly string[];
  /**
   * Removes this context's rows naming the person, or redacts a copy that must stay (a delivery's
   * record of having been sent). Runs inside the erasure's transaction (use `manager`) and writes only
   * this context's tables.
   */
  erase(manager: EntityManager, erasure: PersonErasure): Promise<ErasedCounts>;
  /**
   * Runs before any participant erases: takes the locks that keep this context's background work from
   * copying the person again meanwhile (the outbox relay's mark). Optional.
   */
  beforeErase?(manager: EntityManager): Promise<void>;
  /**
   * This context's part of the person's export: sections by name, each a stream of rows read a page at
   * a time, so a person with 100k timeline rows never sits in memory whole. Absent: nothing to show.
   */
  exportSections?(workspaceId: string, personIds: string[]): Record<string, () => AsyncIterable<unknown>>;
}

/**
 * True for SQL that reads a jsonb value `doc` as naming one of `values` (a text[] parameter): any string
 * anywhere in it equal to one of them. Whole strings, so a short anonymous id never matches inside text.
 */
export const jsonNamesAny = (doc: string, values: string): string =>
  `EXISTS (SELECT 1 FROM jsonb_path_query(${doc}, 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string' AND v ` +
  `#>> '{}' = ANY(${values}))`;

/** Reads rows a page at a time: `page(after)` answers the rows after the last one it was given (null first). */
export async function* paged<T>(page: (after: T | null) => Promise<T[]>, size: number): AsyncIterable<T> {
  let after: T | null = null;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1];
  }
}

/** The rows of one read as a section, for a part that is small (a person's identities). */
export async function* rowsOf<T>(rows: Promise<T[]>): AsyncIterable<T> {
  yield* await rows;
}

@Injectable()
export class PersonDataParticipants {
  private readonly participants = new Map<string, PersonDataParticipant>();

  /** Called from the owning module's onModuleInit. */
  register(participant: PersonDataParticipant): void {
    this.participants.set(participant.name, participant);
  }

  /** Every registered participant, in registration order. */
  all(): PersonDataParticipant[] {
    return [...this.participants.values()];
  }

  /** Every participant's erasure, in registration order; a failure fails the erasure and its transaction. */
  async eraseAll(manager: EntityManager, erasure: PersonErasure): Promise<ErasedCounts> {
    const counts: ErasedCounts = {};
    for (const participant of this.participants.values()) await participant.beforeErase?.(manager);
    for (const participant of this.participants.values()) {
      for (const [table, n] of Object.entries(await participant.erase(manager, erasure)))
        counts[table] = (counts[table] ?? 0) + n;
    }
    return counts;
  }

  /** Every participant's export sections, merged by name. */
  sections(workspaceId: string, personIds: string[]): Record<string, () => AsyncIterable<unknown>> {
    return Object.assign({}, ...this.all().map((p) => p.exportSections?.(workspaceId, personIds) ?? {}));
  }
}
