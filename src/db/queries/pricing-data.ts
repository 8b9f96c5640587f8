/** @fileoverview Price data kept by syncPricing on PostgreSQL (one row), so every process and restart finds it. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

type Q = Kysely<Database>;

export interface StoredPricing {
  source: string;
  effectiveFrom: string;
  data: string;
  fetchedAt: number;
}

export async function upsertPricingData(db: Q, p: StoredPricing): Promise<void> {
  const values = { source: p.source, effective_from: p.effectiveFrom, data: p.data, fetched_at: p.fetchedAt };
  await db
    .insertInto('pricing_data')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function findPricingData(db: Q): Promise<StoredPricing | undefined> {
  const row = await db.selectFrom('pricing_data').selectAll().where('id', '=', 1n).executeTakeFirst();
  return row
    ? { source: row.source, effectiveFrom: row.effective_from, data: row.data, fetchedAt: Number(row.fetched_at) }
    : undefined;
}
