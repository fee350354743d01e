// A workspace of many people for search's plan test and bench: person n (1 = oldest,
// one minute apart) has a name for two in three, an anon id for all (8 hex digits, each its own) and an
// email `user<n>@…` for even n, half of them at gmail.com. So "gmail" matches a quarter of everyone
// spread evenly, "user12" a few thousand old people (n from 120,000 to 129,998), an anon id one person.
import { MIGRATIONS } from '@app/schema';

interface Connection {
  query(sql: string, args?: unknown[]): Promise<unknown>;
}

/** What each kind of fragment finds among 1,000,000 people; counts are of people. */
export const SEARCH_FRAGMENTS = {
  /** One anon id (person 777,777's). */
  rare: anonId(777_777).slice(-6),
  /** 56 people: user4242, user42420–42428, user424200–424298. */
  middling: 'user4242',
  /** 5,556 people, nearly all of them among the oldest eighth. */
  old: 'user12',
  /** 55,556 people, nearly all of them among the oldest fifth (n from 100,000 to 199,998), and person 1,000,000. */
  oldCommon: 'user1',
  /** 250,000 people, evenly spread. */
  common: 'gmail',
  /** A first name: 33,334 people, evenly spread. */
  name: 'olivia',
  /** Two letters: no trigram, read in order. */
  short: 'ia',
} as const;

export function anonId(n: number): string {
  return `anon_${((n * 2654435761) % 4294967296).toString(16).padStart(8, '0')}`;
}

/**
 * Fills `workspaceId` with `count` people and their identities in a few statements. The trigram indexes
 * are dropped during the fill and made again by their migrations: building a GIN index once is several
 * times faster than adding a million rows to it. The first migration makes both, the identities' while
 * that table is still empty; the second makes the identities' again, once it is filled.
 */
export async function fillPeople(db: Connection, workspaceId: string, count: number): Promise<void> {
  // A fill statement outlasts the app's statement timeout on a busy machine.
  await db.query(`SET statement_timeout = 0; SET maintenance_work_mem = '256MB'`);
  await db.query(`DROP INDEX identities_value_trgm; DROP INDEX people_name_trgm`);
  await db.query(
    `INSERT INTO people (workspace_id, id, name, created_at, last_seen_at)
     SELECT $1, 'per_' || lpad(n::text, 8, '0'),
            CASE WHEN n % 3 <> 0 THEN
              (ARRAY['Olivia','Liam','Emma','Noah','Ava','Elijah','Sophia','Lucas','Mia','Mateo'])[1 + n % 10] || ' ' ||
              (ARRAY['Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis','Rodriguez','Martinez',
                     'Hernandez','Lopez','Gonzalez','Wilson','Anderson','Thomas','Taylor','Moore','Jackson','Martin'])[1 + (n / 10) % 20]
            END,
            timestamptz '2024-01-01' + n * interval '1 minute', timestamptz '2024-01-01' + n * interval '1 minute'
       FROM generate_series(1, $2) AS n`,
    [workspaceId, count],
  );
  await migrationUp(db, SEARCH_INDEX_MIGRATIONS[0]);
  await db.query(`DROP INDEX identities_value_trgm`);
  // Each in the primary key's order, so the btree fills page after page.
  await db.query(
    `INSERT INTO identities (workspace_id, kind, value, person_id, created_at, person_created_at)
     SELECT $1, 'anon_id', 'anon_' || lpad(to_hex((n * 2654435761) % 4294967296), 8, '0'), 'per_' || lpad(n::text, 8, '0'),
            timestamptz '2024-01-01' + n * interval '1 minute', timestamptz '2024-01-01' + n * interval '1 minute'
       FROM generate_series(1, $2) AS n ORDER BY 3`,
    [workspaceId, count],
  );
  await db.query(
    `INSERT INTO identities (workspace_id, kind, value, person_id, created_at, person_created_at)
     SELECT $1, 'email', 'user' || n || '@' || (ARRAY['gmail.com','example.org','gmail.com','acme.io'])[1 + (n / 2) % 4],
            'per_' || lpad(n::text, 8, '0'), timestamptz '2024-01-01' + n * interval '1 minute', timestamptz '2024-01-01' + n * interval '1 minute'
       FROM generate_series(2, $2, 2) AS n ORDER BY 3`,
    [workspaceId, count],
  );
  await migrationUp(db, SEARCH_INDEX_MIGRATIONS[1]);
  await db.query(`ANALYZE people; ANALYZE identities; RESET statement_timeout; RESET maintenance_work_mem`);
}

/** The migrations that make search's trigram indexes, in order (the second makes the identities' again). */
const SEARCH_INDEX_MIGRATIONS = ['PeopleSearch1766800000000', 'IdentitiesSearchC1767150000000'];

const migrationUp = (db: Connection, name: string) => new (MIGRATIONS.find((m) => m.name === name)!)().up(db as never);

/** Makes search's trigram indexes as the migrations leave them. */
export async function searchIndexes(db: Connection): Promise<void> {
  for (const name of SEARCH_INDEX_MIGRATIONS) await migrationUp(db, name);
}
