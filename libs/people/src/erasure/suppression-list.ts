// The suppression list, people's table of erased identity keys kept as keyed
// hashes (domain/suppression.ts). The ingest asks it, after its load, which of a post's keys are
// erased; an erasure adds the person's keys; an owner lifts one.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type AppConfig, CONFIG, preparedQuery } from '@app/platform';
import { type IdentityKey, keyString, suppressionHash, suppressionProbes } from '../domain';

/**
 * The check of a write that adds identity keys (the ingest's): the hashes listed at `suppressionHashes`
 * in the statement's document must not be on the list, or the statement fails with LL410
 * (isSuppressedRace) and nothing of it is written; with `suppressionsNone` true instead, the workspace
 * must list no key at all (one probe, no hash: SuppressionList.mayList). Read the CTE
 * (`SELECT count(*) FROM suppression_check`) or PostgreSQL never runs it. A probe by full key per hash.
 */
export function suppressionCheckCte(doc: string, workspace: string): string {
  return `suppression_check AS (
  SELECT lifeline_key_suppressed(x.hash) FROM jsonb_array_elements_text(${doc} -> 'suppressionHashes') AS x(hash)
    CROSS JOIN LATERAL (SELECT 1 FROM suppressions s WHERE s.workspace_id = ${workspace} AND s.hash = x.hash OFFSET 0) s
  UNION ALL
  SELECT lifeline_key_suppressed('(the workspace lists erased keys)') FROM (
    SELECT 1 FROM suppressions s WHERE (${doc} ->> 'suppressionsNone')::boolean AND s.workspace_id = ${workspace}
      LIMIT 1) s)`;
}

/** The failure of a suppressionCheckCte: a key the post would add was erased after its load. */
export function isSuppressedRace(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'LL410';
}

@Injectable()
export class SuppressionList {
  /**
   * Workspaces this process has seen list an erased key (sticky). Until a workspace is here, its posts
   * hash no key: their write checks that the workspace lists none (suppressionCheckCte), and one that
   * does fails the write, which puts the workspace here and runs the post again reading the list.
   * An HMAC per new key (3 µs) and a probe per hash are then paid only where erasures happened.
   */
  private readonly listing = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** False while this process has seen no erased key listed in the workspace (then a write checks for none at all). */
  mayList(workspaceId: string): boolean {
    return this.listing.has(workspaceId);
  }

  /** The workspace lists erased keys (a write found one, or an erasure here added them). */
  noteListed(workspaceId: string): void {
    this.listing.add(workspaceId);
  }

  hash(workspaceId: string, key: IdentityKey): string {
    return suppressionHash(this.config.appSecret, workspaceId, key);
  }

  /** The hashes a post's key is checked by: its own and its value's under the other kinds (suppressionProbes). */
  probeHashes(workspaceId: string, key: IdentityKey): string[] {
    return suppressionProbes(key).map((probe) => this.hash(workspaceId, probe));
  }

  /**
   * The keys (as keyString) among these that name an erased person, under their own kind or another
   * (probeHashes). Read in the caller's transaction after its load: a post that waited on the lock of a
   * person being erased sees the erasure's keys.
   */
  async suppressed(m: EntityManager, workspaceId: string, keys: IdentityKey[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const hashes = keys.map((key) => this.probeHashes(workspaceId, key));
    const rows: Array<{ hash: string }> = await preparedQuery(
      m,
      'suppressed_keys',
      `SELECT hash FROM suppressions WHERE workspace_id = $1 AND hash = ANY($2::text[])`,
      [workspaceId, hashes.flat()],
    );
    if (rows.length === 0) return new Set();
    const found = new Set(rows.map((row) => row.hash));
    return new Set(keys.filter((_key, i) => hashes[i].some((hash) => found.has(hash))).map(keyString));
  }

  /** Adds the keys of an erased person, in the erasure's transaction. */
  async add(m: EntityManager, workspaceId: string, keys: IdentityKey[], erasureId: string): Promise<number> {
    if (keys.length === 0) return 0;
    this.noteListed(workspaceId);
    const rows: unknown[] = await m.query(
      `INSERT INTO suppressions (workspace_id, hash, erasure_id) SELECT $1, unnest($2::text[]), $3
       ON CONFLICT (workspace_id, hash) DO NOTHING RETURNING 1`,
      [workspaceId, [...new Set(keys.map((key) => this.hash(workspaceId, key)))], erasureId],
    );
    return rows.length;
  }

  /** Lifts the suppression of one key: true when it was suppressed. */
  async lift(workspaceId: string, key: IdentityKey): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM suppressions WHERE workspace_id = $1 AND hash = $2 RETURNING 1`,
      [workspaceId, this.hash(workspaceId, key)],
    );
    return rows.length > 0;
  }

  /** The suppressed keys of a workspace, counted (the keys themselves cannot be read back). */
  async count(workspaceId: string): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM suppressions WHERE workspace_id = $1`, [
      workspaceId,
    ]);
    return row.n;
  }
}
