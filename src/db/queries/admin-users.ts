/**
 * @fileoverview The instance admins' view of accounts (migration 0020): a page of users with their
 * devices, last upload and this month's usage, and the admin and disabled attributes.
 */
import { sql } from 'kysely';
import type { Queryable } from '../connect.js';

export interface AdminUserRow {
  id: string;
  email: string | null;
  display_name: string | null;
  created_at: bigint;
  admin_since: bigint | null;
  disabled_at: bigint | null;
  last_upload_at: bigint | null;
  devices: bigint;
  tokens: bigint;
  cost_micros: bigint;
}

/** `%` and `_` (and the escape) taken literally in a LIKE pattern. */
function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of users, oldest first, whose e-mail address contains `search` (lower case) when given;
 * tokens and cost summed over UTC days `fromDay` (inclusive) … `toDay` (exclusive).
 */
export async function listUsersForAdmin(
  db: Queryable,
  options: { search: string | undefined; limit: number; offset: number; fromDay: number; toDay: number },
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const { search, limit, offset, fromDay, toDay } = options;
  let base = db.selectFrom('users as u');
  if (search !== undefined && search !== '')
    base = base.where(sql<boolean>`u.email like ${likeContaining(search)} escape '\\'`);
  const counted = await base.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirst();
  const rows = await base
    .select([
      'u.id',
      'u.email',
      'u.display_name',
      'u.created_at',
      'u.admin_since',
      'u.disabled_at',
      sql<bigint | null>`(select max(d.last_upload_at) from devices d where d.user_id = u.id)`.as('last_upload_at'),
      sql<bigint>`(select count(*) from devices d where d.user_id = u.id and d.revoked_at is null)`.as('devices'),
      sql<bigint>`(select coalesce(sum(ud.total), 0) from usage_daily ud
                    where ud.user_id = u.id and ud.day >= ${fromDay} and ud.day < ${toDay})`.as('tokens'),
      sql<bigint>`(select coalesce(sum(ud.cost_micros), 0) from usage_daily ud
                    where ud.user_id = u.id and ud.day >= ${fromDay} and ud.day < ${toDay})`.as('cost_micros'),
    ])
    .orderBy('u.created_at')
    .orderBy('u.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: Number(counted?.n ?? 0) };
}

/** Makes the user an admin (keeping the first instant) or not. */
export async function setUserAdmin(db: Queryable, userId: string, admin: boolean, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ admin_since: admin ? sql<bigint>`coalesce(admin_since, ${now})` : null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Disables the user (keeping the first instant) or enables them. */
export async function setUserDisabled(db: Queryable, userId: string, disabled: boolean, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ disabled_at: disabled ? sql<bigint>`coalesce(disabled_at, ${now})` : null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Admins who can act: admin and not disabled. */
export async function countActiveAdmins(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('admin_since', 'is not', null)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
