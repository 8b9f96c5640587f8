import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { PricingStore } from '../../src/jobs/pricing-store.js';
import { syncPricing } from '../../src/jobs/pricing-sync.js';
import { createPriceService } from '../../src/pricing/index.js';

describe('syncPricing fetch', () => {
  it('gives up after the timeout and keeps the current prices', async () => {
    const hanging = http.createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    const saved: unknown[] = [];
    const store: PricingStore = {
      location: 'memory',
      save: async (p) => void saved.push(p),
      load: async () => undefined,
    };
    try {
      const started = Date.now();
      const result = await syncPricing({
        prices: createPriceService(),
        store,
        clock: new ManualClock(Date.UTC(2026, 10, 1)),
        sourceUrl: url,
        timeoutMs: 200,
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result).toMatchObject({ success: false, updated: false, persisted: false });
      expect(result.reason).toMatch(/did not answer within 0.2 s/);
      expect(saved).toEqual([]);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
