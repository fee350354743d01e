// Who owns a secret key, by its hash, read from the database for every request unless the write
// rechecks it (docs/rest.md#key-authenticated-routes): a revoked key or a removed member is refused at
// once by every process. No Nest import, as WorkspacesService, which holds it.
import { GroupCommit, Refusal } from '@app/platform/plain';
import type { KeyOwnerRow, WorkspacesRepository } from '../workspaces.repository';

const LAST_USE_EVERY_MS = 60_000;
/** Keys remembered live per process (authenticate's recheckedByWrite); past this many, it starts afresh. */
const MAX_LIVE_OWNERS = 10_000;

export class KeyOwners {
  /**
   * Every request reads its key from the database, so a revoked key or a removed member is refused at
   * once by every process. One lookup at a time: requests that arrive while one runs share the next
   * (a lookup that began before a request arrived never answers it, so a key revoked before a request
   * is refused), so a burst on one key costs two statements, not one per request.
   */
  private readonly lookups = new GroupCommit<string, KeyOwnerRow | null>(
    async (hashes) => {
      const rows = await this.repository.findKeyOwners([...new Set(hashes)]);
      return hashes.map((hash) => rows.find((r) => r.key_hash === hash) ?? null);
    },
    100,
    1,
  );
  private readonly lastUseWritten = new Map<string, number>();
  /** Owners of keys last seen live, by key hash: only ever used with a recheck by the write (authenticate). */
  private readonly liveOwners = new Map<string, KeyOwnerRow>();

  constructor(private readonly repository: WorkspacesRepository) {}

  /** The owner of a key last seen live, if this process saw it so (to be rechecked by the write). */
  live(hash: string): KeyOwnerRow | undefined {
    return this.liveOwners.get(hash);
  }

  /** The key's owner from the database, remembered while live; refused when the key is not (any more). */
  async lookUp(hash: string): Promise<KeyOwnerRow> {
    this.liveOwners.delete(hash);
    const owner = await this.lookups.submit(hash);
    if (!owner) {
      throw new Refusal(
        'invalid_key',
        'That secret key is not a key of any workspace: copy it again from the workspace developer settings.',
      );
    }
    if (owner.removed_at) {
      throw new Refusal(
        'no_longer_a_member',
        'The person this key acts as has left the workspace: ask an owner for a key of your own.',
      );
    }
    if (owner.revoked_at) {
      throw new Refusal(
        'invalid_key',
        'That secret key was revoked: ask an owner or admin of the workspace for a new one.',
      );
    }
    if (this.liveOwners.size >= MAX_LIVE_OWNERS) this.liveOwners.clear();
    this.liveOwners.set(hash, owner);
    return owner;
  }

  /** Writes a key's last use at most once a minute per process, never in the request's way. */
  noteUse(owner: KeyOwnerRow): void {
    const now = Date.now();
    const written =
      this.lastUseWritten.get(owner.key_id) ?? (owner.last_used_at ? new Date(owner.last_used_at).getTime() : 0);
    if (now - written < LAST_USE_EVERY_MS) return;
    this.lastUseWritten.set(owner.key_id, now);
    this.repository.touchKey(owner.workspace_id, owner.key_id).catch(() => undefined);
  }
}
