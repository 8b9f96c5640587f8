/** @fileoverview When each scheduled job last started on any instance sharing the database. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Claims the run of `name` at `now` unless another run started after `notBefore`: true when this
 * caller may run it. One statement, so of instances that ask at once exactly one wins.
 */
export async function claimJobRun(
  db: Kysely<Database>,
  name: string,
  now: number,
  notBefore: number,
  holder: string,
): Promise<boolean> {
  const row = await db
    .insertInto('job_claims')
    .values({ name, started_at: now, holder })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ started_at: now, holder })
        .where('job_claims.started_at', '<=', BigInt(notBefore)),
    )
    .returning('name')
    .executeTakeFirst();
  return row !== undefined;
}
