/**
 * @fileoverview deleteAccount: the user proves it is them again (the password, or for an account
 * without one — an external OpenID Connect sign-in — a typed confirmation), then everything they
 * own goes in one transaction (db/queries/account-deletion.ts) while no leaderboard refresh runs,
 * and this process forgets the credentials it remembered for them. Other processes stop honouring
 * them within their cache times (10 s: device tokens, a deleted user's JWT).
 */
import type { Db } from '../db/connect.js';
import type { Tx } from '../db/transaction.js';
import { deleteAccount } from '../db/queries/account-deletion.js';
import { findUserById } from '../db/queries/users.js';
import { Forbidden, invalidField, Unauthenticated } from '../domain/errors.js';
import { lockUserUsage } from '../db/locks.js';
import { burnPasswordCheck, verifyPassword } from '../security/passwords.js';
import type { LeaderboardService } from './leaderboard.js';

/** What an account without a password types to confirm (docs/sharing.md, "Deleting an account"). */
export const DELETE_CONFIRMATION = 'delete my account';

export interface DeleteProof {
  password?: string | undefined;
  confirm?: string | undefined;
}

export class AccountDeletionService {
  constructor(
    private readonly deps: {
      db: Db;
      leaderboard: LeaderboardService;
      scryptCost: number;
      /** Drops this process's remembered credentials of the user (device tokens, JWT checks). */
      forget: (userId: string) => void;
    },
  ) {}

  /** Deletes the account after checking the proof; a wrong proof (forbidden) deletes nothing. */
  async delete(userId: string, proof: DeleteProof): Promise<Record<string, number>> {
    const { db, scryptCost } = this.deps;
    const user = await findUserById(db.kysely, userId);
    if (!user) throw new Unauthenticated('The user no longer exists.');
    if (user.password_hash !== null) {
      if (proof.password === undefined) {
        throw invalidField(
          { in: 'body', field: 'password' },
          'is required: re-enter your password to delete the account',
        );
      }
      if (!(await verifyPassword(proof.password, user.password_hash)))
        throw new Forbidden('The password is not correct; nothing was deleted.');
    } else {
      if (proof.password !== undefined) await burnPasswordCheck(proof.password, scryptCost);
      if (proof.confirm !== DELETE_CONFIRMATION) {
        throw invalidField(
          { in: 'body', field: 'confirm' },
          `this account has no password: type "${DELETE_CONFIRMATION}" to confirm`,
        );
      }
    }
    return this.remove(userId);
  }

  /**
   * Deletes the account without a proof (an instance admin's svc-admin-user-delete): the same
   * deletion. `check` runs first inside its transaction (the last-admin rule); what it throws
   * deletes nothing.
   */
  async remove(userId: string, check?: (tx: Tx) => Promise<void>): Promise<Record<string, number>> {
    const { db, leaderboard, forget } = this.deps;
    const counts = await leaderboard.withoutRefresh(async (tx) => {
      await check?.(tx);
      // PostgreSQL: wait for an upload of this user in flight (SQLite: the write transaction already does).
      await lockUserUsage(db, tx, userId);
      return deleteAccount(tx, userId);
    });
    forget(userId);
    return counts;
  }
}
