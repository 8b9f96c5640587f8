/**
 * @fileoverview Retention of spent credentials: link codes a day after they expired (a used code
 * answers its replay for 24 hours), refresh tokens once expired, and used or revoked ones after the
 * retention period (a used token presented again within it still ends its session as reuse), and
 * password recovery tokens once expired.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { deleteLinkCodesExpiredBefore } from '../db/queries/devices.js';
import { deleteExpiredRecoveryTokens } from '../db/queries/recovery-tokens.js';
import { deleteSpentRefreshTokens } from '../db/queries/users.js';
import { inTransaction } from '../db/transaction.js';
import { DAY_MS } from '../domain/calendar.js';

export interface CredentialPurge {
  linkCodes: number;
  refreshTokens: number;
  recoveryTokens: number;
}

export async function purgeSpentCredentials(
  deps: { db: Db; clock: Clock },
  options: { days: number },
): Promise<CredentialPurge> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => ({
    linkCodes: await deleteLinkCodesExpiredBefore(tx, now - DAY_MS),
    refreshTokens: await deleteSpentRefreshTokens(tx, now, now - options.days * DAY_MS),
    recoveryTokens: await deleteExpiredRecoveryTokens(tx, now),
  }));
}
