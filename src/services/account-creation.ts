/**
 * @fileoverview Creating an account (a password account, or a single sign-on one), in one transaction: the user row, the use of the
 * invite it signed up with (refused if the invite was used up meanwhile: concurrent sign-ups
 * cannot take more uses than it has), and the first-admin claim (the first account created on an
 * instance is its admin; of two concurrent first sign-ups one wins the claim).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.js';
import { setUserAdmin } from '../db/queries/admin-users.js';
import { claimSetting } from '../db/queries/instance-settings.js';
import { useInvite } from '../db/queries/invites.js';
import { findUserByEmail, insertUser } from '../db/queries/users.js';
import { inTransaction } from '../db/transaction.js';
import { Conflict, Forbidden } from '../domain/errors.js';

export interface NewAccount {
  email: string;
  /** null: an account without a password (single sign-on). */
  passwordHash: string | null;
  profile: { display_name?: string | null; avatar_url?: string | null };
  /** The invite the sign-up carries (already checked by SignupPolicy.admit). */
  inviteId?: string | undefined;
  /** Made admin whether or not it is the first (the operator's create-user --admin). */
  admin?: boolean;
}

/** The setting the first account takes (migration 0020 takes it for an upgraded instance's oldest). */
export const FIRST_ADMIN_CLAIM = 'first_admin';

const taken = () => new Conflict('A user with this e-mail address already exists.', { reason: 'user_already_exists' });

/** Creates the account; its id. Duplicate e-mail: Conflict (`user_already_exists`). */
export async function createPasswordAccount(db: Db, now: number, account: NewAccount): Promise<string> {
  if (await findUserByEmail(db.kysely, account.email)) throw taken();
  const id = randomUUID();
  try {
    await inTransaction(db, async (tx) => {
      await insertUser(tx, {
        id,
        email: account.email,
        password_hash: account.passwordHash,
        display_name: account.profile.display_name ?? null,
        avatar_url: account.profile.avatar_url ?? null,
        external_id: null,
        created_at: now,
        updated_at: now,
        admin_since: account.admin === true ? now : null,
      });
      if (account.inviteId !== undefined && !(await useInvite(tx, account.inviteId, now)))
        throw new Forbidden('This invite has just been used up, expired or been revoked.', {
          reason: 'invite_invalid',
        });
      if ((await claimSetting(tx, FIRST_ADMIN_CLAIM, id, now)) && account.admin !== true)
        await setUserAdmin(tx, id, true, now);
    });
  } catch (error) {
    if (!(error instanceof Forbidden) && (await findUserByEmail(db.kysely, account.email))) throw taken();
    throw error;
  }
  return id;
}
