/**
 * @fileoverview Named instance settings (`instance_settings`, migration 0020): the sign-up
 * settings an admin saves, and claims taken once (`first_admin`).
 */
import type { Queryable } from '../connect.js';

/** The stored values of these settings (absent ones are left out). */
export async function readSettings(db: Queryable, names: readonly string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('instance_settings')
    .select(['name', 'value'])
    .where('name', 'in', [...names])
    .execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}

export async function writeSetting(db: Queryable, name: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}

/**
 * Takes a setting that is written once (`first_admin`): true when this call stored it, false when
 * it was there already. Two concurrent claims: one wins (the key's uniqueness decides).
 */
export async function claimSetting(db: Queryable, name: string, value: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('instance_settings')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}
