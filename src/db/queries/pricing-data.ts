/** @fileoverview Price data kept by syncPricing on PostgreSQL (one row), so every process and restart finds it. */
import type { Queryable } from '../connect.js';

export interface StoredPricing {
  source: string;
  effectiveFrom: string;
  data: string;
  fetchedAt: number;
}

export async function upsertPricingData(db: Queryable, p: StoredPricing): Promise<void> {
  const values = { source: p.source, effective_from: p.effectiveFrom, data: p.data, fetched_at: p.fetchedAt };
  await db
    .insertInto('pricing_data')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function findPricingData(db: Queryable): Promise<StoredPricing | undefined> {
  const row = await db.selectFrom('pricing_data').selectAll().where('id', '=', 1n).executeTakeFirst();
  return row
    ? { source: row.source, effectiveFrom: row.effective_from, data: row.data, fetchedAt: Number(row.fetched_at) }
    : undefined;
}
