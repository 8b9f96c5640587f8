import { describe, expect, it } from 'vitest';
import { createTestApp, engine } from '../helpers/app.js';

describe(`scheduled jobs in the app (${engine})`, () => {
  it('start with JOBS_ENABLED, log one line per run, and stop on close', async () => {
    const t = await createTestApp({
      env: { JOBS_ENABLED: 'true', PRICING_SOURCE_URL: 'http://127.0.0.1:9/prices.json' },
    });
    try {
      const deadline = Date.now() + 10_000;
      const refreshLines = () => t.logs.filter((l) => l.includes('"job":"leaderboard.refresh"'));
      while (refreshLines().length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const [line] = refreshLines();
      expect(line).toBeDefined();
      expect(JSON.parse(line as string)).toMatchObject({
        level: 30,
        msg: 'job leaderboard.refresh: week 0 rows, month 0 rows, total 0 rows',
      });
    } finally {
      await t.close();
    }
    const count = t.logs.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.logs.length).toBe(count);
  });
});
