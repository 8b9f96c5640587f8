/**
 * @fileoverview Everything a user owns, by table, and the one statement list that deletes it
 * (deleteAccount). A table that gains a `user_id` column (or rows reached through the user's
 * devices) belongs in {@link USER_OWNED}; test/http/account-delete.test.ts fails when a table with a
 * `user_id` column is missing from it.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../transaction.js';
import type { Database } from '../schema.js';
import { handOverOwnedTeams } from './teams.js';
import { moveMemberUsage } from './team-usage-model.js';

/** How a table's rows of one user are found. */
type Owned =
  /** Rows carry the user id (their key starts with it, or it is indexed). */
  | { table: keyof Database; by: 'user_id' }
  /** Rows keyed by device: found through the user's devices (their key starts with device_id). */
  | { table: keyof Database; by: 'device' }
  /** Raw buckets, a row per device and day: keyed by the number of a device of the user (their key starts with device_num). */
  | { table: keyof Database; by: 'device_num' }
  /** Leaderboard snapshots: keyed by generation first, so the user is looked up within each generation. */
  | { table: keyof Database; by: 'generation' }
  /** Children of the user's budgets or webhooks (alerts; queued messages and their attempts). */
  | { table: keyof Database; by: 'budget' | 'webhook' };

/**
 * Every table holding a user's rows, children before parents (devices and users last, so foreign
 * keys never object). Snapshot rows go too: the current snapshot stops showing the user at once,
 * the next one is computed without them.
 */
export const USER_OWNED: readonly Owned[] = [
  { table: 'usage_device_days', by: 'device_num' },
  { table: 'device_subscriptions', by: 'user_id' },
  { table: 'device_tokens', by: 'device' },
  { table: 'ingest_events', by: 'user_id' },
  { table: 'usage_rollup', by: 'user_id' },
  { table: 'usage_daily', by: 'user_id' },
  { table: 'usage_blocks', by: 'user_id' },
  { table: 'usage_days', by: 'user_id' },
  { table: 'user_storage', by: 'user_id' },
  { table: 'usage_daily_repriced', by: 'user_id' },
  { table: 'project_usage', by: 'user_id' },
  { table: 'leaderboard_user_weeks', by: 'user_id' },
  { table: 'leaderboard_user_months', by: 'user_id' },
  { table: 'leaderboard_user_totals', by: 'user_id' },
  { table: 'leaderboard_entries', by: 'generation' },
  { table: 'leaderboard_members', by: 'generation' },
  { table: 'public_views', by: 'user_id' },
  { table: 'public_profiles', by: 'user_id' },
  { table: 'entitlements', by: 'user_id' },
  { table: 'link_codes', by: 'user_id' },
  { table: 'refresh_tokens', by: 'user_id' },
  { table: 'sso_codes', by: 'user_id' },
  { table: 'user_identities', by: 'user_id' },
  { table: 'api_tokens', by: 'user_id' },
  { table: 'recovery_tokens', by: 'user_id' },
  { table: 'budget_alerts', by: 'budget' },
  { table: 'budgets', by: 'user_id' },
  { table: 'webhook_attempts', by: 'webhook' },
  { table: 'webhook_messages', by: 'webhook' },
  { table: 'webhooks', by: 'user_id' },
  // Memberships (a team whose only owner this is was handed over first: handOverOwnedTeams).
  { table: 'team_members', by: 'user_id' },
  // Device tokens carry user_id too; a token whose device row is gone is caught here.
  { table: 'device_tokens', by: 'user_id' },
  { table: 'devices', by: 'user_id' },
  { table: 'users', by: 'user_id' },
];

function deletion(owned: Owned, userId: string): RawBuilder<unknown> {
  const table = sql.table(owned.table);
  if (owned.table === 'users') return sql`delete from users where id = ${userId}`;
  switch (owned.by) {
    case 'user_id':
      return sql`delete from ${table} where user_id = ${userId}`;
    case 'device':
      return sql`delete from ${table} where device_id in (select id from devices where user_id = ${userId})`;
    case 'device_num':
      return sql`delete from ${table} where device_num in (select num from devices where user_id = ${userId})`;
    case 'budget':
      return sql`delete from ${table} where budget_id in (select id from budgets where user_id = ${userId})`;
    case 'webhook':
      return sql`delete from ${table} where webhook_id in (select id from webhooks where user_id = ${userId})`;
    case 'generation':
      return sql`delete from ${table} where generation in (select id from leaderboard_generations) and user_id = ${userId}`;
  }
}

/**
 * Deletes every row the user owns (run in one transaction: all or nothing). Returns the rows
 * deleted per table, for the log line.
 */
export async function deleteAccount(tx: Tx, userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await handOverOwnedTeams(tx, userId);
  // The user's usage leaves each of their teams' rows before the rows it is summed from go.
  await moveMemberUsage(tx, userId, null, -1);
  for (const owned of USER_OWNED) {
    const result = await deletion(owned, userId).execute(tx);
    counts[owned.table] = (counts[owned.table] ?? 0) + Number(result.numAffectedRows ?? 0n);
  }
  return counts;
}
