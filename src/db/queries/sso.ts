/**
 * @fileoverview Single sign-on storage (migration 0017): flows under way at a provider (taken once),
 * the one-time codes of the PKCE flow (consumed once) and the provider identities linked to users.
 */
import type { Insertable } from 'kysely';
import type { Queryable } from '../connect.js';
import type { SsoCodeRow, SsoFlowRow } from '../schema.js';
import type { SsoCodesTable, SsoFlowsTable } from '../schema-sso.js';

/** Stores a new flow, deleting the expired ones on the way (nothing else would). */
export async function insertSsoFlow(db: Queryable, flow: Insertable<SsoFlowsTable>, now: number): Promise<void> {
  await db.deleteFrom('sso_flows').where('expires_at', '<=', BigInt(now)).execute();
  await db.insertInto('sso_flows').values(flow).execute();
}

/** Takes a flow by its state's hash: deleted as it is read, so a state works once, expired or not. */
export async function takeSsoFlow(db: Queryable, stateHash: string): Promise<SsoFlowRow | undefined> {
  return db.deleteFrom('sso_flows').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
}

export async function insertSsoCode(db: Queryable, code: Insertable<SsoCodesTable>, now: number): Promise<void> {
  await db.deleteFrom('sso_codes').where('expires_at', '<=', BigInt(now)).execute();
  await db.insertInto('sso_codes').values(code).execute();
}

export async function findSsoCode(db: Queryable, codeHash: string): Promise<SsoCodeRow | undefined> {
  return db.selectFrom('sso_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Marks a code used, only if it still was unused; true when this call won. */
export async function consumeSsoCode(db: Queryable, codeHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sso_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The user a provider's subject is linked to. */
export async function findIdentityUser(db: Queryable, provider: string, subject: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_identities')
    .select('user_id')
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.user_id;
}

/** Links a provider's subject to a user (or notes another sign-in of a linked one). */
export async function linkIdentity(
  db: Queryable,
  identity: { provider: string; subject: string; user_id: string; email: string | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({ ...identity, created_at: now, last_sign_in_at: now })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doUpdateSet({ last_sign_in_at: now }))
    .execute();
}
