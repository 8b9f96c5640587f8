/** @fileoverview Server secrets kept in the database, shared by every instance on it (src/security/secrets.ts). */
import type { Db } from '../connect.js';
import { advisoryXactLock } from '../dialect.js';

/**
 * Stores a generated value for each name that has none yet and answers the value stored for every
 * name (the first instance to keep a secret wins; the others read its value).
 */
export async function keepSecrets<N extends string>(
  db: Db,
  names: readonly N[],
  generate: (name: N) => string,
  now: number,
): Promise<Partial<Record<N, string>>> {
  return db.kysely.transaction().execute(async (tx) => {
    await advisoryXactLock('tokentally:server_secrets').execute(tx);
    const result: Partial<Record<N, string>> = {};
    for (const name of names) {
      await tx
        .insertInto('server_secrets')
        .values({ name, value: generate(name), created_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await tx
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      result[name] = row.value;
    }
    return result;
  });
}
