/**
 * @fileoverview What instance admins do to accounts (docs/running-for-a-group.md): who is an
 * admin (a user JWT of an admin account, or the service role key), the users page, disabling and
 * enabling, making and revoking admins, and deleting an account. A change that would leave the
 * instance without an enabled admin is refused (409 `last_admin`), checked inside the change's
 * transaction while other such changes wait (PostgreSQL: an advisory lock; SQLite writes one at a time).
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { lockInstanceAdmins } from '../db/locks.js';
import { countActiveAdmins, listUsersForAdmin, setUserAdmin, setUserDisabled } from '../db/queries/admin-users.js';
import { findUserById, revokeUserSessions } from '../db/queries/users.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import { Conflict, Forbidden, NotFound } from '../domain/errors.js';
import { formatMicros } from '../pricing/money.js';
import type { AccountDeletionService } from './account-deletion.js';

/** Who calls an admin operation: an admin's user id, or the service role (null). */
export type AdminActor = { readonly userId: string } | { readonly serviceRole: true };

export interface AdminUserView {
  id: string;
  email: string | null;
  display_name: string | null;
  created_at: string;
  last_upload_at: string | null;
  devices: number;
  tokens_this_month: string;
  cost_this_month_usd: string;
  admin: boolean;
  disabled: boolean;
}

const DAY_MS = 86_400_000;
const iso = (ms: bigint) => new Date(Number(ms)).toISOString();

/** The UTC epoch days of the calendar month around `now`: first (inclusive) and end (exclusive). */
export function utcMonthDays(now: number): { fromDay: number; toDay: number } {
  const d = new Date(now);
  return {
    fromDay: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS,
    toDay: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS,
  };
}

export class InstanceAdminService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      deletion: AccountDeletionService;
      /** Forgets the user's remembered credentials here and in the other server processes. */
      forget: (userId: string) => void;
    },
  ) {}

  /** Refuses (403) a user who is not an enabled admin; the service role may act. */
  async requireAdmin(caller: { role: 'user'; userId: string } | { role: 'service_role' }): Promise<AdminActor> {
    if (caller.role === 'service_role') return { serviceRole: true };
    const user = await findUserById(this.deps.db.kysely, caller.userId);
    if (user?.admin_since == null || user.disabled_at !== null)
      throw new Forbidden('Only an admin of this server may do this.', { reason: 'not_admin' });
    return { userId: user.id };
  }

  async listUsers(query: { q?: string | undefined; limit: number; offset: number }) {
    const search = query.q?.trim().toLowerCase();
    const { rows, total } = await listUsersForAdmin(this.deps.db.kysely, {
      search,
      limit: query.limit,
      offset: query.offset,
      ...utcMonthDays(this.deps.clock.now()),
    });
    const users: AdminUserView[] = rows.map((row) => ({
      id: row.id,
      email: row.email,
      display_name: row.display_name,
      created_at: iso(row.created_at),
      last_upload_at: row.last_upload_at === null ? null : iso(BigInt(row.last_upload_at)),
      devices: Number(row.devices),
      tokens_this_month: BigInt(row.tokens).toString(),
      cost_this_month_usd: formatMicros(BigInt(row.cost_micros)),
      admin: row.admin_since !== null,
      disabled: row.disabled_at !== null,
    }));
    return { users, total, limit: query.limit, offset: query.offset };
  }

  /**
   * Disables or enables the account and makes or revokes its admin. Disabling ends its sessions;
   * its device and share tokens stop working while it is disabled (and work again once enabled).
   */
  async updateUser(input: { user_id: string; disabled?: boolean | undefined; admin?: boolean | undefined }) {
    const { db, clock, forget } = this.deps;
    const now = clock.now();
    const after = await inTransaction(db, async (tx) => {
      await this.lockAdmins(tx);
      const user = await findUserById(tx, input.user_id);
      if (!user) throw new NotFound('No such user.', { reason: 'user_not_found' });
      const adminsBefore = await countActiveAdmins(tx);
      if (input.admin !== undefined) await setUserAdmin(tx, user.id, input.admin, now);
      if (input.disabled !== undefined) await setUserDisabled(tx, user.id, input.disabled, now);
      if (input.disabled === true) await revokeUserSessions(tx, user.id, now);
      if (adminsBefore > 0 && (await countActiveAdmins(tx)) === 0) throw lastAdmin();
      const changed = await findUserById(tx, user.id);
      return { user_id: user.id, admin: changed?.admin_since != null, disabled: changed?.disabled_at != null };
    });
    if (input.disabled !== undefined || input.admin !== undefined) forget(input.user_id);
    return after;
  }

  /** Deletes the account and everything it owns (the same deletion as the user's own). */
  async deleteUser(userId: string): Promise<{ deleted: true; user_id: string }> {
    if (!(await findUserById(this.deps.db.kysely, userId)))
      throw new NotFound('No such user.', { reason: 'user_not_found' });
    await this.deps.deletion.remove(userId, async (tx) => {
      await this.lockAdmins(tx);
      const user = await findUserById(tx, userId);
      if (user?.admin_since != null && user.disabled_at === null && (await countActiveAdmins(tx)) <= 1)
        throw lastAdmin();
    });
    return { deleted: true, user_id: userId };
  }

  private async lockAdmins(tx: Tx): Promise<void> {
    await lockInstanceAdmins(this.deps.db, tx);
  }
}

function lastAdmin(): Conflict {
  return new Conflict('This is the last admin of the server: make another account admin first, then try again.', {
    reason: 'last_admin',
  });
}
