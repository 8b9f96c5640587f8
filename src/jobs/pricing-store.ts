/**
 * @fileoverview Where syncPricing keeps the price data it switched to, so a restart keeps it:
 * `DATA_DIR/pricing.json` (written atomically) on SQLite, the `pricing_data` table on PostgreSQL
 * (shared by every process).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/connect.js';
import { findPricingData, upsertPricingData, type StoredPricing } from '../db/queries/pricing-data.js';

export interface PricingStore {
  save(p: StoredPricing): Promise<void>;
  load(): Promise<StoredPricing | undefined>;
  /** Where it is kept, for messages. */
  readonly location: string;
}

export function createPricingStore(db: Db, dataDir: string): PricingStore {
  if (db.dialect === 'postgres') {
    return {
      location: 'database table pricing_data',
      save: (p) => upsertPricingData(db.kysely, p),
      load: () => findPricingData(db.kysely),
    };
  }
  const file = path.join(dataDir, 'pricing.json');
  return {
    location: file,
    async save(p) {
      await fs.promises.mkdir(dataDir, { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(temp, JSON.stringify(p));
      await fs.promises.rename(temp, file);
    },
    async load() {
      try {
        return JSON.parse(await fs.promises.readFile(file, 'utf8')) as StoredPricing;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}
