// Reads for the GraphQL admin API and other contexts (messaging, webhooks).
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { IdentityKind, SubscriptionStatus, WithdrawnVia } from './domain';
import { PERSON_COLUMNS as COLUMNS, type PersonRow } from './people.repository';
import { filterConditions, type PersonFilter, type PersonPageQuery, withoutSearch } from './person-filter';
import { indexable, pageCandidates, searchCandidates, searchMatch, windowRead } from './people-search';
import { type PeopleSort, sortedRead, type SortPosition } from './people-sort';

export type { PersonCondition, PersonFilter, PersonPageQuery } from './person-filter';

export type PersonListRow = PersonRow & { at_micros: string };
/** A row of a sorted page: its key in the order's terms, as text (people-sort.ts). */
type PersonSortedRow = PersonRow & { sort_key: string };

/** Counting stops here: totalCount is exact below it. */
export const COUNT_BOUND = 10_000;

/**
 * Search's bounds (docs/decisions.md#people-search): the newest people a page reads in order before it
 * turns to the trigram indexes, and the matches a count reads from each index before it reads them all.
 */
export { SEARCH_RECENT } from './people-search';
export const SEARCH_CANDIDATES = COUNT_BOUND + 1;
/** A page past the window sorts only this many candidates per row it reads before it sorts them all. */
export const SEARCH_TOP_PER_ROW = 4;

export interface SubscriptionRead {
  person_id: string;
  list_id: string;
  address: string;
  name: string;
  double_opt_in: boolean;
  status: SubscriptionStatus;
  consent: unknown;
  consent_text: string;
  consent_ip: string | null;
  granted_at: Date;
  source_label: string | null;
  withdrawn_at: Date | null;
  withdrawn_via: WithdrawnVia | null;
  withdrawn_ip: string | null;
  /** A double opt-in's confirmation: when, and the address of its post. */
  confirmed_at: Date | null;
  confirmed_ip: string | null;
}

/**
 * Joins a caller's rows to their person, for a read that must stay one statement (a page of messages, an
 * insert's SELECT): `JOIN people <alias>` by the full key, `workspace` and `personId` being SQL of the
 * caller's statement; the alias's columns are PersonRow's (and merged_into).
 */
export function personJoin(
  alias: string,
  workspace: string,
  personId: string,
  join: 'JOIN' | 'LEFT JOIN' = 'JOIN',
): string {
  return `${join} people ${alias} ON ${alias}.workspace_id = ${workspace} AND ${alias}.id = ${personId}`;
}

/** A person as asTheyAre reads them: `asked` is the id asked for, `id` the person they became. */
export interface PersonAsTheyAre {
  workspace_id: string;
  asked: string;
  id: string;
  name: string | null;
  email: string | null;
  stage: string | null;
}

@Injectable()
export class PeopleReadRepository {
  /** Inside a read request the replica may serve these; elsewhere (sends, workers, erasure) the primary does. */
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /**
   * These people (workspace and id, pairwise) as they are now: a merged person as the person they became
   * (merged_into names the survivor). Read with `m`, in the caller's transaction.
   */
  asTheyAre(
    m: EntityManager,
    workspaceIds: readonly string[],
    personIds: readonly string[],
  ): Promise<PersonAsTheyAre[]> {
    return m.query(
      `SELECT p.workspace_id, p.id AS asked, coalesce(s.id, p.id) AS id, coalesce(s.name, p.name) AS name,
              coalesce(s.email, p.email) AS email, coalesce(s.stage, p.stage) AS stage
         FROM unnest($1::text[], $2::text[]) AS k(w, p_id)
         JOIN people p ON p.workspace_id = k.w AND p.id = k.p_id
         LEFT JOIN people s ON p.merged_into IS NOT NULL AND s.workspace_id = p.workspace_id AND s.id = p.merged_into`,
      [workspaceIds, personIds],
    );
  }

  /** A person by record id; an id that was merged away leads to the person it became. */
  async byId(workspaceId: string, id: string): Promise<PersonRow | null> {
    let current = id;
    for (let hop = 0; hop < 10; hop++) {
      const [row] = await this.reads.query(`SELECT ${COLUMNS} FROM people WHERE workspace_id = $1 AND id = $2`, [
        workspaceId,
        current,
      ]);
      if (!row) return null;
      if (!row.merged_into) return row;
      current = row.merged_into;
    }
    return null;
  }

  /** These people by record id, those not merged away, in no order. */
  byIds(workspaceId: string, ids: readonly string[]): Promise<PersonRow[]> {
    return this.reads.query(
      `SELECT ${COLUMNS} FROM people WHERE workspace_id = $1 AND id = ANY($2::text[]) AND merged_into IS NULL`,
      [workspaceId, ids],
    );
  }

  /** A person as a route names them ({who}): by email when it holds an @, else by record id. */
  byWho(workspaceId: string, who: string): Promise<PersonRow | null> {
    return who.includes('@') ? this.byEmail(workspaceId, who) : this.byId(workspaceId, who);
  }

  byEmail(workspaceId: string, email: string): Promise<PersonRow | null> {
    return this.byIdentity(workspaceId, 'email', email.trim().toLowerCase());
  }

  /** The person an identity key (already normalized) belongs to; a merge moves keys to the survivor. */
  async byIdentity(workspaceId: string, kind: IdentityKind, value: string): Promise<PersonRow | null> {
    const [row] = await this.reads.query(
      `SELECT p.${COLUMNS.split(', ').join(', p.')} FROM identities i JOIN people p ON p.workspace_id = i.workspace_id
        AND p.id = i.person_id
        WHERE i.workspace_id = $1 AND i.kind = $2 AND i.value = $3`,
      [workspaceId, kind, value],
    );
    return row ?? null;
  }

  /** Newest first, by (created_at, id), from a position on. */
  async page(workspaceId: string, query: PersonPageQuery): Promise<PersonListRow[]> {
    const fragment = query.filter.search?.trim();
    if (!fragment || !indexable(fragment)) return this.scanPage(workspaceId, query);
    // Matches among the newest people fill the page with one short ordered read (a common fragment);
    // otherwise the indexes' candidates, newest first (docs/decisions.md#people-search).
    const recent = await this.scanPage(workspaceId, query, true);
    if (recent.length === query.limit) return recent;
    return this.candidatesPage(workspaceId, query, fragment);
  }

  /**
   * In the order asked (docs/graphql.md#sorting-people), from a position on: the order's index read in order, each
   * person checked against the filters (search too) as it comes.
   */
  sortedPage(
    workspaceId: string,
    query: { filter: PersonFilter; limit: number; sort: PeopleSort; after?: SortPosition },
  ): Promise<PersonSortedRow[]> {
    const { filter, search } = withoutSearch(query.filter);
    const { where, args } = filterConditions(workspaceId, filter);
    if (search) where.push(searchMatch(args, search));
    const { sort, after, limit } = query;
    return this.reads.query(sortedRead({ columns: COLUMNS, where, args, sort, after, limit }), args);
  }

  /** How many match, counted up to COUNT_BOUND + 1 so a large workspace costs no more than that. */
  async count(workspaceId: string, filter: PersonFilter): Promise<number> {
    const fragment = filter.search?.trim();
    if (fragment) {
      // Without trigrams the candidates are read in order rather than from an index, and still stop at the cap.
      const capped = await this.candidatesCount(workspaceId, filter, fragment, SEARCH_CANDIDATES);
      return capped ?? (await this.candidatesCount(workspaceId, filter, fragment, null))!;
    }
    const { where, args } = filterConditions(workspaceId, filter);
    const [row] = await this.reads.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM people WHERE ${where.join(' AND ')} LIMIT ` +
        `${COUNT_BOUND + 1}) AS matched`,
      args,
    );
    return row.n;
  }

  /**
   * The ordered read: people_created from the position on, filtered; with `window`, only the newest SEARCH_RECENT
   * (windowRead).
   */
  private scanPage(workspaceId: string, query: PersonPageQuery, window = false): Promise<PersonListRow[]> {
    const { filter, search } = withoutSearch(query.filter);
    const { where, args } = filterConditions(workspaceId, filter, query.after);
    const select = `SELECT ${COLUMNS}, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_micros`;
    const order = `ORDER BY created_at DESC, id DESC`;
    const limit = `$${args.push(query.limit)}`;
    if (window)
      return this.reads.query(windowRead({ select, where, order, limit, match: searchMatch(args, search!) }), args);
    const conditions = [...where, ...(search ? [searchMatch(args, search)] : [])];
    return this.reads.query(`${select} FROM people WHERE ${conditions.join(' AND ')} ${order} LIMIT ${limit}`, args);
  }

  /**
   * The page from the trigram indexes' candidates (pageCandidates) by the created_at they carry, reading only the
   * page's people (filters and position applied): from the newest limit × SEARCH_TOP_PER_ROW candidates, a bounded
   * sort, unless too many of those are one person's or fail the filters; then, when there were more, from all of them.
   */
  private async candidatesPage(
    workspaceId: string,
    query: PersonPageQuery,
    fragment: string,
  ): Promise<PersonListRow[]> {
    const top = query.limit * SEARCH_TOP_PER_ROW;
    const { took, rows } = await this.candidatesRead(workspaceId, query, fragment, top);
    return rows.length === query.limit || took < top
      ? rows
      : (await this.candidatesRead(workspaceId, query, fragment, null)).rows;
  }

  /** The page from the newest `top` candidates (all with null), and how many candidates were taken. */
  private async candidatesRead(workspaceId: string, query: PersonPageQuery, fragment: string, top: number | null) {
    const { filter } = withoutSearch(query.filter);
    const { where, args, position } = filterConditions(workspaceId, filter, query.after);
    const candidates = pageCandidates(where, args, fragment, position);
    const [t, l] = [args.push(top), args.push(query.limit)];
    // One row even when no candidate is a match (took, then nulls), so the caller knows whether to read on. Without
    // parallel workers (serialQuery): their start-up cost this page more than they saved
    // (docs/decisions.md#people-search).
    const rows: Array<PersonListRow & { took: number }> = await this.reads.serialQuery(
      `WITH c AS MATERIALIZED (SELECT id, at FROM (${candidates}) c ORDER BY at DESC, id DESC LIMIT $${t})
       SELECT (SELECT count(*)::int FROM c) AS took, p.*
         FROM (SELECT 1) one LEFT JOIN LATERAL (
           SELECT p.*, (extract(epoch FROM p.created_at) * 1000000)::bigint::text AS at_micros
             FROM (SELECT DISTINCT ON (at, id) id, at FROM c ORDER BY at DESC, id DESC) h
             CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM people WHERE ${where.join(' AND ')}
               AND people.id = h.id OFFSET 0) p
            ORDER BY h.at DESC, h.id DESC LIMIT $${l}) p ON true
        ORDER BY p.created_at DESC, p.id DESC`,
      args,
    );
    return {
      took: rows[0]?.took ?? 0,
      rows: rows.filter((r) => r.id !== null).map(({ took: _, ...row }) => row as PersonListRow),
    };
  }

  /**
   * The count from the candidates; null when a side reached the cap and the candidates counted stay under the bound.
   */
  private async candidatesCount(
    workspaceId: string,
    fullFilter: PersonFilter,
    fragment: string,
    cap: number | null,
  ): Promise<number | null> {
    const { filter } = withoutSearch(fullFilter);
    const { where, args } = filterConditions(workspaceId, filter);
    const hits = searchCandidates(where, args, fragment, cap);
    // An identity always names a person not merged away (a merge moves keys to the survivor), so without
    // other filters an identity's person needs no read.
    const check =
      where.length > 2
        ? `CROSS JOIN LATERAL (SELECT 1 FROM people WHERE ${where.join(' AND ')} AND people.id = h.id OFFSET 0) p`
        : '';
    const [row] = await this.reads.query(
      `${hits}
       SELECT count(*) FILTER (WHERE named)::int AS named, count(*) FILTER (WHERE NOT named)::int AS keyed,
              (SELECT count(*)::int FROM (SELECT DISTINCT id FROM hits) h ${check}) AS n
         FROM hits`,
      args,
    );
    if (cap !== null && (row.named >= cap || row.keyed >= cap) && row.n <= COUNT_BOUND) return null;
    return row.n;
  }

  identitiesOf(
    workspaceId: string,
    personIds: readonly string[],
  ): Promise<Array<{ person_id: string; kind: string; value: string }>> {
    return this.reads.query(
      `SELECT person_id, kind, value FROM identities WHERE workspace_id = $1 AND person_id = ANY($2::text[]) ` +
        `ORDER BY created_at, kind, value`,
      [workspaceId, personIds],
    );
  }

  subscriptionsOf(workspaceId: string, personIds: readonly string[]): Promise<SubscriptionRead[]> {
    return this.reads.query(
      `SELECT s.person_id, s.list_id, l.address, l.name, l.double_opt_in, s.status, s.consent, s.consent_text, s.consent_ip,
        s.granted_at, s.source_label, s.withdrawn_at, s.withdrawn_via, s.withdrawn_ip,
        s.confirmed_at, s.confirmed_ip
         FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
        WHERE s.workspace_id = $1 AND s.person_id = ANY($2::text[]) ORDER BY s.granted_at`,
      [workspaceId, personIds],
    );
  }

  lists(workspaceId: string): Promise<Array<{ id: string; address: string; name: string; double_opt_in: boolean }>> {
    return this.reads.query(
      `SELECT id, address, name, double_opt_in FROM lists WHERE workspace_id = $1 ORDER BY created_at`,
      [workspaceId],
    );
  }
}
