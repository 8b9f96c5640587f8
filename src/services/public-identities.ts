/**
 * @fileoverview Public names, avatars and visibility for leaderboard rows, cached per identity
 * revision (migration 0005). Each read asks the database for the current revision (one
 * primary-key read); while it stays the same, identities already read are served from memory and
 * only unknown users are looked up. Any change to a name, avatar or visibility moves the revision
 * (triggers), so the next read in every process sees it: nothing is ever served stale by time.
 */
import type { Db } from '../db/connect.js';
import { listPublicIdentities, readIdentityRevision, type PublicIdentity } from '../db/queries/leaderboard-reads.js';

/** Users remembered per revision before the memory is emptied (they are cheap to read again). */
const MAX_REMEMBERED = 200_000;

export class PublicIdentities {
  private revision = -1n;
  /** null: the user does not exist (shown as not public). */
  private remembered = new Map<string, PublicIdentity | null>();

  constructor(private readonly db: Db) {}

  /** The current revision, forgetting identities read at an older one. */
  async currentRevision(): Promise<bigint> {
    const revision = await readIdentityRevision(this.db);
    if (revision !== this.revision) {
      this.revision = revision;
      this.remembered = new Map();
    }
    return revision;
  }

  /**
   * Identities of `userIds` at the current revision (read it first with {@link currentRevision});
   * a user without one (unknown) is not public.
   */
  async of(userIds: readonly string[]): Promise<Map<string, PublicIdentity>> {
    const remembered = this.remembered;
    const missing = userIds.filter((id) => !remembered.has(id));
    if (missing.length > 0) {
      const found = await listPublicIdentities(this.db, missing);
      // The revision may have moved while this read ran: remember only into the map it belongs to.
      if (this.remembered === remembered) {
        if (remembered.size + missing.length > MAX_REMEMBERED) remembered.clear();
        for (const id of missing) remembered.set(id, found.get(id) ?? null);
      }
      return collect(userIds, (id) => found.get(id) ?? remembered.get(id) ?? null);
    }
    return collect(userIds, (id) => remembered.get(id) ?? null);
  }
}

function collect(
  userIds: readonly string[],
  identityOf: (id: string) => PublicIdentity | null,
): Map<string, PublicIdentity> {
  const out = new Map<string, PublicIdentity>();
  for (const id of userIds) {
    const identity = identityOf(id);
    if (identity) out.set(id, identity);
  }
  return out;
}
