/**
 * @fileoverview Price data sets kept in the database under their fingerprints (`price_snapshots`):
 * the data stored costs were, or are being, priced by, so every process (and every later version
 * of the package) can price with the same data (docs/pricing.md, "Stored costs").
 */
import type { Queryable } from '../connect.js';

export interface PriceSnapshot {
  readonly fingerprint: string;
  readonly source: string;
  readonly effectiveFrom: string;
  /** The providers, as JSON text. */
  readonly data: string;
}

/** Keeps a data set under its fingerprint (a fingerprint names one data set: a kept one stays, and is not sent again). */
export async function savePriceSnapshot(db: Queryable, s: PriceSnapshot, nowMs: number): Promise<void> {
  if (await hasPriceSnapshot(db, s.fingerprint)) return;
  await db
    .insertInto('price_snapshots')
    .values({
      fingerprint: s.fingerprint,
      source: s.source,
      effective_from: s.effectiveFrom,
      data: s.data,
      saved_at: nowMs,
    })
    .onConflict((oc) => oc.column('fingerprint').doNothing())
    .execute();
}

export async function hasPriceSnapshot(db: Queryable, fingerprint: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('price_snapshots')
      .select('fingerprint')
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst()) !== undefined
  );
}

export async function findPriceSnapshot(db: Queryable, fingerprint: string): Promise<PriceSnapshot | undefined> {
  const row = await db
    .selectFrom('price_snapshots')
    .select(['fingerprint', 'source', 'effective_from', 'data'])
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  return row && { fingerprint: row.fingerprint, source: row.source, effectiveFrom: row.effective_from, data: row.data };
}
